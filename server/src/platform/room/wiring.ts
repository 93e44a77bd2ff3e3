import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { checkRoomToken } from '../meetings/room-token.ts';
import { registerRoomPages } from './plugin.ts';

/** The participant's room pages (outside /v1): tokens checked against the meetings table. */
export function createRoomModule(deps: Pick<CoreDeps, 'db' | 'config'>) {
  const { db, config } = deps;
  return {
    publicRoutes: [
      (app: AppInstance) =>
        registerRoomPages(app, {
          checkRoomToken: (meetingId, token) => checkRoomToken(db, meetingId, token),
          publicUrl: config.publicUrl,
          mediaPublicUrl: config.mediaPublicUrl,
        }),
    ],
  };
}
