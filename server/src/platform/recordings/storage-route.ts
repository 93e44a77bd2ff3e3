import { AppError } from '../../core/http/errors.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { LocalStorage, type ObjectStorage } from '../../core/storage/index.ts';

/**
 * Serves local-disk objects behind their signed, expiring URLs (`/storage/<key>?expires&signature`,
 * made by LocalStorage.signedUrl). Only registered when storage is the local disk: S3 signs its own
 * URLs. A CDN set as MEDIA_PUBLIC_URL forwards here with the path and query unchanged.
 */
export function registerStorageRoute(app: AppInstance, storage: ObjectStorage): void {
  if (!(storage instanceof LocalStorage)) return;
  app.get('/storage/*', { schema: { hide: true } }, async (request, reply) => {
    const key = decodeURIComponent((request.params as { '*': string })['*'] ?? '');
    const query = request.query as { expires?: string; signature?: string };
    const expires = Number(query.expires);
    let valid = false;
    try {
      valid = typeof query.signature === 'string' && storage.verify(key, expires, query.signature);
    } catch {
      valid = false;
    }
    const object = valid ? await storage.get(key).catch(() => null) : null;
    if (!object) throw new AppError('resource_not_found', 'No such object, or the link has expired.');
    return reply
      .header('Content-Type', object.contentType)
      .header('Content-Length', String(object.size))
      .header('Cache-Control', 'private, max-age=300')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Disposition', 'inline')
      .send(object.body);
  });
}
