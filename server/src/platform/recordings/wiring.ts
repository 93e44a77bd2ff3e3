import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import type { ObjectStorage } from '../../core/storage/index.ts';
import type { EventEmitter } from '../events/emitter.ts';
import { recordingRoutes } from './routes.ts';
import { RecordingService } from './service.ts';
import { registerStorageRoute } from './storage-route.ts';

/** Recordings, and the signed local-storage URLs they are read from (outside /v1). */
export function createRecordingsModule(
  deps: Pick<CoreDeps, 'db' | 'clock' | 'config' | 'logger'> & {
    events: EventEmitter;
    storage: ObjectStorage;
  },
) {
  const { db, clock, config, logger, events, storage } = deps;
  const storageBaseUrl = config.s3
    ? `${config.s3.endpoint.replace(/\/$/, '')}/${config.s3.bucket}`
    : `${config.publicUrl}/storage`;
  const recordings = new RecordingService({
    db,
    clock,
    events,
    storage,
    logger,
    mediaPublicUrl: config.mediaPublicUrl,
    storageBaseUrl,
  });
  return {
    recordings,
    routes: [(app: AppInstance) => recordingRoutes(app, { meetings: { recordings } })],
    publicRoutes: [(app: AppInstance) => registerStorageRoute(app, storage)],
  };
}
