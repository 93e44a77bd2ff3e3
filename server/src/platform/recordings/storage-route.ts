import { contentRange, decideRange, unsatisfiedContentRange } from '../../core/http/byte-range.ts';
import { AppError } from '../../core/http/errors.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { LocalStorage, type ObjectInfo, type ObjectStorage } from '../../core/storage/index.ts';

/**
 * Serves local-disk objects behind their signed, expiring URLs (`/storage/<key>?expires&signature`,
 * made by LocalStorage.signedUrl). Only registered when storage is the local disk: S3 signs its own
 * URLs (and answers Range requests itself). A CDN set as MEDIA_PUBLIC_URL forwards here with the
 * path and query unchanged.
 *
 * Byte ranges (RFC 9110 §14) let players seek in a recording without downloading it first: one
 * range gets 206 and only those bytes are read from disk; see core/http/byte-range.ts for what is
 * ignored. HEAD answers the same headers without reading the object.
 */
export function registerStorageRoute(app: AppInstance, storage: ObjectStorage): void {
  if (!(storage instanceof LocalStorage)) return;
  app.route({
    method: ['GET', 'HEAD'],
    url: '/storage/*',
    schema: { hide: true },
    handler: async (request, reply) => {
      // The router has already percent-decoded the wildcard (a path that is not valid
      // percent-encoding never gets here: 400). Decoding again would read `%2541` as `A` and
      // throw (500) on `%25E0`; a key that is not the signed one simply fails the signature.
      const key = (request.params as { '*': string })['*'] ?? '';
      const query = request.query as { expires?: string; signature?: string };
      const expires = Number(query.expires);
      let valid = false;
      try {
        valid = typeof query.signature === 'string' && storage.verify(key, expires, query.signature);
      } catch {
        valid = false;
      }
      const info = valid ? await storage.head(key).catch(() => null) : null;
      if (!info) throw new AppError('resource_not_found', 'No such object, or the link has expired.');

      const etag = entityTag(info);
      reply.header('Accept-Ranges', 'bytes');

      // Range handling is defined for GET only (RFC 9110 §14.2): HEAD describes the whole object.
      const decision =
        request.method === 'GET'
          ? decideRange(
              { range: request.headers.range, ifRange: header(request.headers['if-range']) },
              info.size,
              { etag, lastModified: info.lastModified },
            )
          : ({ kind: 'full' } as const);
      if (decision.kind === 'unsatisfiable') {
        throw new AppError(
          'range_not_satisfiable',
          `The requested range is outside the ${info.size} bytes.`,
          {
            param: 'Range',
            headers: { 'Content-Range': unsatisfiedContentRange(info.size) },
          },
        );
      }
      const range = decision.kind === 'partial' ? decision.range : null;
      if (etag) reply.header('ETag', etag);
      if (info.lastModified) reply.header('Last-Modified', info.lastModified.toUTCString());
      reply
        .header('Cache-Control', 'private, max-age=300')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Type', info.contentType)
        .header('Content-Disposition', 'inline')
        .header('Content-Length', String(range ? range.end - range.start + 1 : info.size));
      if (range) reply.code(206).header('Content-Range', contentRange(range, info.size));
      if (request.method === 'HEAD') return reply.send();

      const object = await storage.get(key, range ? { range } : {}).catch(() => null);
      if (!object) throw new AppError('resource_not_found', 'No such object, or the link has expired.');
      return reply.send(object.body);
    },
  });
}

/**
 * A strong tag from the size and write time: objects are written to a temporary file and renamed
 * into place, so a different content means a new modification time.
 */
function entityTag(info: ObjectInfo): string | null {
  if (!info.lastModified) return null;
  return `"${info.size.toString(16)}-${info.lastModified.getTime().toString(16)}"`;
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
