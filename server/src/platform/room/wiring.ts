import type { PlatformDeps } from '../../app/platform-deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { checkRoomToken } from '../meetings/room-token.ts';
import { registerRoomPages } from './plugin.ts';

/** The room pages of the platform app (outside /v1): tokens checked against the meetings table. */
export function registerPlatformRoomPages(app: AppInstance, deps: PlatformDeps): Promise<void> {
  return registerRoomPages(app, {
    checkRoomToken: (meetingId, token) => checkRoomToken(deps.db, meetingId, token),
    publicUrl: deps.config.publicUrl,
    mediaPublicUrl: deps.config.mediaPublicUrl,
  });
}
