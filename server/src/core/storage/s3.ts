import { pipeline, Readable, Transform } from 'node:stream';
import aws4 from 'aws4';
import type { Clock } from '../clock.ts';
import {
  assertValidKey,
  type GetOptions,
  type ObjectInfo,
  type ObjectStorage,
  type PutOptions,
  type StorageBody,
  type StoredObject,
  toBuffer,
} from './types.ts';

export interface S3StorageOptions {
  /** e.g. `https://s3.eu-west-1.amazonaws.com` or a MinIO/R2 endpoint; requests are path-style. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Optional prefix inside the bucket, e.g. `understudy/`. */
  prefix?: string;
  clock: Clock;
  fetch?: typeof fetch;
}

/** Any S3-compatible service, signed with SigV4 (aws4) over fetch; path-style addressing. */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const;
  private readonly base: URL;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: S3StorageOptions) {
    this.base = new URL(options.endpoint);
    this.fetch = options.fetch ?? fetch;
  }

  private objectPath(key: string): string {
    assertValidKey(key);
    const basePath = this.base.pathname.replace(/\/$/, '');
    const fullKey = `${this.options.prefix ?? ''}${key}`;
    return `${basePath}/${encodeURIComponent(this.options.bucket)}/${fullKey.split('/').map(encodeS3).join('/')}`;
  }

  private sign(method: string, path: string, headers: Record<string, string>, signQuery = false) {
    const request = aws4.sign(
      {
        host: this.base.host,
        method,
        // The signing time comes from the injected clock, in the query or in a header.
        path: signQuery ? `${path}&X-Amz-Date=${amzDate(this.options.clock.now())}` : path,
        service: 's3',
        region: this.options.region,
        headers: signQuery ? headers : { ...headers, 'X-Amz-Date': amzDate(this.options.clock.now()) },
        signQuery,
        doNotEncodePath: true,
      },
      { accessKeyId: this.options.accessKeyId, secretAccessKey: this.options.secretAccessKey },
    );
    return {
      url: `${this.base.protocol}//${this.base.host}${request.path}`,
      headers: request.headers as Record<string, string>,
    };
  }

  async put(
    key: string,
    body: StorageBody,
    contentType: string,
    options: PutOptions = {},
  ): Promise<{ size: number }> {
    const path = this.objectPath(key);
    const streaming = body instanceof Readable && options.contentLength !== undefined;
    const payload = streaming ? null : await toBuffer(body);
    const size = payload ? payload.length : options.contentLength!;
    const signed = this.sign('PUT', path, {
      'Content-Type': contentType,
      'Content-Length': String(size),
      // The body is not hashed into the signature, so a stream can be sent as it is read.
      'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD',
    });
    const response = await this.fetch(signed.url, {
      method: 'PUT',
      headers: stripHost(signed.headers),
      body: payload ?? (Readable.toWeb(body as Readable) as ReadableStream),
      ...(payload ? {} : { duplex: 'half' }),
    } as RequestInit);
    await expectOk(response, 'PUT', key);
    return { size };
  }

  async get(key: string, options: GetOptions = {}): Promise<StoredObject | null> {
    const { range } = options;
    const signed = this.sign('GET', this.objectPath(key), {
      'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD',
      ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
    });
    const response = await this.fetch(signed.url, { headers: stripHost(signed.headers) });
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    await expectOk(response, 'GET', key);
    const info = objectInfo(response.headers);
    let body = Readable.fromWeb(response.body as never);
    if (range && response.status === 206) {
      // Content-Length is the range's; the whole size is after the slash of Content-Range.
      info.size = Number(/\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1] ?? info.size);
    } else if (range) {
      // A service that ignored the Range sent everything: keep only the bytes asked for.
      // pipeline destroys the slice with the source's error, so readers see a failure.
      body = pipeline(body, sliceBytes(range.start, range.end), () => {});
    }
    return { ...info, body };
  }

  async head(key: string): Promise<ObjectInfo | null> {
    const signed = this.sign('HEAD', this.objectPath(key), { 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD' });
    const response = await this.fetch(signed.url, { method: 'HEAD', headers: stripHost(signed.headers) });
    if (response.status === 404) return null;
    await expectOk(response, 'HEAD', key);
    return objectInfo(response.headers);
  }

  async delete(key: string): Promise<void> {
    const signed = this.sign('DELETE', this.objectPath(key), { 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD' });
    const response = await this.fetch(signed.url, { method: 'DELETE', headers: stripHost(signed.headers) });
    if (response.status === 404) return;
    await expectOk(response, 'DELETE', key);
  }

  async signedUrl(key: string, expiresInSeconds: number): Promise<string> {
    const path = `${this.objectPath(key)}?X-Amz-Expires=${Math.max(1, Math.min(604_800, Math.floor(expiresInSeconds)))}`;
    return this.sign('GET', path, {}, true).url;
  }
}

/** RFC 3986 encoding as S3 expects for key segments. */
function encodeS3(segment: string): string {
  return encodeURIComponent(segment).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function objectInfo(headers: Headers): ObjectInfo {
  const lastModified = headers.get('last-modified');
  const parsed = lastModified ? new Date(lastModified) : null;
  return {
    contentType: headers.get('content-type') ?? 'application/octet-stream',
    size: Number(headers.get('content-length') ?? 0),
    lastModified: parsed && !Number.isNaN(parsed.getTime()) ? parsed : null,
  };
}

/** Passes through only bytes `start..end` (inclusive) of what flows in. */
function sliceBytes(start: number, end: number): Transform {
  let position = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const from = Math.max(0, start - position);
      const to = Math.min(chunk.length, end + 1 - position);
      position += chunk.length;
      done(null, from < to ? chunk.subarray(from, to) : undefined);
    },
  });
}

function amzDate(date: Date): string {
  return date.toISOString().replace(/[:-]|\.\d{3}/g, '');
}

function stripHost(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (name.toLowerCase() !== 'host') out[name] = String(value);
  return out;
}

async function expectOk(response: Response, method: string, key: string): Promise<void> {
  if (response.ok) {
    if (method !== 'GET') await response.body?.cancel();
    return;
  }
  const text = (await response.text().catch(() => '')).slice(0, 300);
  throw new Error(`S3 ${method} ${key} failed with ${response.status}: ${text}`);
}
