import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type Stats } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../clock.ts';
import { hmacSha256Hex, safeEqual } from '../crypto/hashing.ts';
import {
  assertValidKey,
  type GetOptions,
  type ObjectInfo,
  type ObjectStorage,
  type StorageBody,
  type StoredObject,
} from './types.ts';

export interface LocalStorageOptions {
  /** Directory that holds the objects (e.g. `<DATA_DIR>/objects`). */
  root: string;
  /** Base of signed URLs, e.g. `http://localhost:8080/storage`; the serving route checks them with verify(). */
  publicBaseUrl: string;
  /** Key for signed URLs (derive it from the encryption key). */
  signingKey: Buffer;
  clock: Clock;
}

/**
 * Objects as files under one root, written to a temporary name and renamed into place so a
 * reader never sees half an object. The content type sits beside each object in `<file>.type`.
 */
/** Types implied by a key's extension: such objects need no `.type` sidecar file. */
const TYPE_BY_EXTENSION: Record<string, string> = {
  eml: 'message/rfc822',
  json: 'application/json',
  txt: 'text/plain',
};

function impliedType(file: string): string | undefined {
  const dot = file.lastIndexOf('.');
  return dot > file.lastIndexOf('/') ? TYPE_BY_EXTENSION[file.slice(dot + 1).toLowerCase()] : undefined;
}

export class LocalStorage implements ObjectStorage {
  readonly kind = 'local' as const;
  private readonly knownDirs = new Set<string>();
  constructor(private readonly options: LocalStorageOptions) {}

  private path(key: string): string {
    assertValidKey(key);
    return join(this.options.root, ...key.split('/'));
  }

  async put(key: string, body: StorageBody, contentType: string): Promise<{ size: number }> {
    const file = this.path(key);
    const dir = dirname(file);
    if (!this.knownDirs.has(dir)) {
      await mkdir(dir, { recursive: true });
      this.knownDirs.add(dir);
    }
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      if (body instanceof Readable) await pipeline(body, createWriteStream(temp));
      else await writeFile(temp, typeof body === 'string' ? body : body);
      if (impliedType(file) !== contentType) await writeFile(`${file}.type`, contentType);
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    if (Buffer.isBuffer(body) || body instanceof Uint8Array) return { size: body.byteLength };
    if (typeof body === 'string') return { size: Buffer.byteLength(body) };
    return { size: (await stat(file)).size };
  }

  async get(key: string, options: GetOptions = {}): Promise<StoredObject | null> {
    const info = await this.head(key);
    if (!info) return null;
    const { range } = options;
    // createReadStream's `end` is inclusive, like a Content-Range position.
    const body = range
      ? createReadStream(this.path(key), { start: range.start, end: range.end })
      : createReadStream(this.path(key));
    return { ...info, body };
  }

  async head(key: string): Promise<ObjectInfo | null> {
    const file = this.path(key);
    let stats: Stats;
    try {
      stats = await stat(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const contentType = await readFile(`${file}.type`, 'utf8').catch(
      () => impliedType(file) ?? 'application/octet-stream',
    );
    return { contentType, size: stats.size, lastModified: stats.mtime };
  }

  async delete(key: string): Promise<void> {
    const file = this.path(key);
    await rm(file, { force: true });
    await rm(`${file}.type`, { force: true });
  }

  async signedUrl(key: string, expiresInSeconds: number): Promise<string> {
    assertValidKey(key);
    const expires = Math.floor(this.options.clock.now().getTime() / 1000) + expiresInSeconds;
    const signature = hmacSha256Hex(this.options.signingKey, `${key}\n${expires}`);
    const path = key.split('/').map(encodeURIComponent).join('/');
    return `${this.options.publicBaseUrl.replace(/\/$/, '')}/${path}?expires=${expires}&signature=${signature}`;
  }

  /** For the route that serves signed URLs: true when the signature matches and has not expired. */
  verify(key: string, expires: number, signature: string): boolean {
    if (!Number.isInteger(expires) || expires * 1000 < this.options.clock.now().getTime()) return false;
    return safeEqual(hmacSha256Hex(this.options.signingKey, `${key}\n${expires}`), signature);
  }
}
