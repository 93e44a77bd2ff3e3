import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../core/http/errors.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { sourcePath } from '../../core/paths.ts';
import { AVATAR_ASSET_PREFIX, AVATARS } from './catalog.ts';

const AVATAR_DIR = sourcePath('platform', 'personas', 'avatars');

/**
 * Serves the catalog's avatar portraits at `/assets/avatars/<file>.svg`, without credentials (an
 * `<img>` in the meeting room or a customer's page cannot send a bearer key). Only catalog files
 * are served; they are read once at start-up. Register outside the authenticated /v1 scope.
 */
export function registerAvatarAssets(app: AppInstance): void {
  const files = new Map(AVATARS.map((avatar) => [avatar.file, readFileSync(join(AVATAR_DIR, avatar.file))]));
  app.get(`${AVATAR_ASSET_PREFIX}:file`, { schema: { hide: true } }, async (request, reply) => {
    const { file } = request.params as { file: string };
    const body = files.get(file);
    if (!body) throw new AppError('route_not_found', `No avatar image named ${file}.`, { param: 'file' });
    return (
      reply
        .header('Content-Type', 'image/svg+xml; charset=utf-8')
        .header('Cache-Control', 'public, max-age=86400, immutable')
        .header('X-Content-Type-Options', 'nosniff')
        // An SVG opened directly is a document: it may draw, never run script or load anything.
        .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(body)
    );
  });
}
