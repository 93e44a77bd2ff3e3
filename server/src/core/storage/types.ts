import type { Readable } from 'node:stream';

export type StorageBody = Buffer | Uint8Array | string | Readable;

/** What is known of an object without reading it. */
export interface ObjectInfo {
  contentType: string;
  /** The whole object's size in bytes, also when only a range of it is read. */
  size: number;
  /** When the object was last written, if the backend says so (a validator for HTTP caches). */
  lastModified: Date | null;
}

export interface StoredObject extends ObjectInfo {
  /** The object's bytes, or only those of the requested range. */
  body: Readable;
}

export interface GetOptions {
  /** Read only these bytes (inclusive positions, inside the object: check them against head()). */
  range?: { start: number; end: number };
}

export interface PutOptions {
  /** Lets a stream go straight to S3 instead of being buffered first. */
  contentLength?: number;
}

/**
 * Object storage behind one small interface: local disk by default, any S3-compatible service
 * when configured. Keys are slash-separated paths chosen by the caller (e.g. `mailbox/raw/…`).
 */
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  put(key: string, body: StorageBody, contentType: string, options?: PutOptions): Promise<{ size: number }>;
  /** Null when no object has this key. */
  get(key: string, options?: GetOptions): Promise<StoredObject | null>;
  /** The object's type and size without its body; null when no object has this key. */
  head(key: string): Promise<ObjectInfo | null>;
  /** Deleting an absent key is not an error. */
  delete(key: string): Promise<void>;
  /** A time-limited URL that fetches the object without other credentials. */
  signedUrl(key: string, expiresInSeconds: number): Promise<string>;
}

const KEY = /^[A-Za-z0-9!_.*'()@=+-]+(\/[A-Za-z0-9!_.*'()@=+-]+)*$/;

/** Keys are relative, with no `..` segment, so a key can never escape its root or bucket prefix. */
export function assertValidKey(key: string): void {
  if (
    key.length === 0 ||
    key.length > 1024 ||
    !KEY.test(key) ||
    key.split('/').some((part) => part === '..' || part === '.')
  ) {
    throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
  }
}

export async function toBuffer(body: StorageBody): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}
