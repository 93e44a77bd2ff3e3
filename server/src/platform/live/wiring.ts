// Builds the meetings/live module once per process, and hands its routes, jobs and background
// loops to the app (platform-app.ts, routes.ts, app/jobs.ts, workers.ts).
import { Type } from 'typebox';
import type { PlatformDeps } from '../../app/platform-deps.ts';
import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { defineJob, type JobDefinition, JobQueue } from '../../core/jobs/index.ts';
import { createLlmClient } from '../../core/llm/index.ts';
import { outboundPolicyFor } from '../../core/outbound/address-policy.ts';
import { OutboundClient } from '../../core/outbound/index.ts';
import { createStorage, type ObjectStorage } from '../../core/storage/index.ts';
import type { BackgroundWorker } from '../../core/workers.ts';
import { createEventEmitter } from '../events/emitter.ts';
import { FINALIZE_JOB, MeetingLifecycle } from '../meetings/lifecycle.ts';
import { MeetingService } from '../meetings/service.ts';
import { RecordingService } from '../recordings/service.ts';
import { registerStorageRoute } from '../recordings/storage-route.ts';
import { TranscriptService } from '../transcripts/service.ts';
import { LiveHub, type LiveHubDeps } from './hub.ts';
import { registerRoomRoutes } from './room-routes.ts';
import { createWebSearch } from './web-search.ts';

export interface MeetingsModule {
  service: MeetingService;
  lifecycle: MeetingLifecycle;
  hub: LiveHub;
  recordings: RecordingService;
  transcripts: TranscriptService;
  storage: ObjectStorage;
}

export interface MeetingsServices {
  meetings: MeetingsModule;
}

export interface MeetingsModuleOverrides {
  /** Tests: a shorter filler delay or reconnect grace. */
  hub?: Partial<Pick<LiveHubDeps, 'fillerDelayMs' | 'reconnectGraceMs' | 'heartbeatMs'>>;
  storage?: ObjectStorage;
}

/** Built from the core alone (its own event emitter and job queue are stateless views of the database). */
export function createMeetingsServices(
  deps: CoreDeps,
  overrides: MeetingsModuleOverrides = {},
): MeetingsServices {
  const { config, clock, secretBox, logger, database, db } = deps;
  const events = createEventEmitter({ clock, secretBox, legacyWebhookSunset: config.legacyWebhookSunset });
  const jobs = new JobQueue(clock);
  const policy = outboundPolicyFor(config);
  const outbound = new OutboundClient(policy);
  deps.disposers.push(() => outbound.close());
  const storage = overrides.storage ?? createStorage(config, secretBox.deriveKey('storage-url'), clock);
  const lifecycle = new MeetingLifecycle({ database, clock, events, jobs, logger });
  const hub = new LiveHub({
    database,
    clock,
    secretBox,
    logger: logger.child({ component: 'live' }),
    config,
    lifecycle,
    outbound,
    llm: config.llm ? createLlmClient(config.llm) : null,
    webSearch: config.searchUrl ? createWebSearch(config.searchUrl) : null,
    ...overrides.hub,
  });
  const storageBaseUrl = config.s3
    ? `${config.s3.endpoint.replace(/\/$/, '')}/${config.s3.bucket}`
    : `${config.publicUrl}/storage`;
  const meetings: MeetingsModule = {
    service: new MeetingService({
      db,
      clock,
      events,
      lifecycle,
      publicUrl: config.publicUrl,
      llmModel: config.llm?.model ?? null,
      outboundPolicy: policy,
    }),
    lifecycle,
    hub,
    recordings: new RecordingService({
      db,
      clock,
      events,
      storage,
      logger,
      mediaPublicUrl: config.mediaPublicUrl,
      storageBaseUrl,
    }),
    transcripts: new TranscriptService({ db, paginator: deps.paginator }),
    storage,
  };
  return { meetings };
}

/** The room API, the WebSocket and signed local-storage URLs, outside the authenticated /v1 scope. */
export async function registerLiveRoutes(app: AppInstance, deps: PlatformDeps): Promise<void> {
  const { hub, recordings, storage } = deps.meetings;
  await registerRoomRoutes(app, {
    db: deps.db,
    clock: deps.clock,
    publicUrl: deps.config.publicUrl,
    hub,
    recordings,
  });
  registerStorageRoute(app, storage);
  app.addHook('onReady', () => hub.start());
  app.addHook('onClose', () => hub.stop());
}

/** Jobs of the meetings module (see app/jobs.ts for the catalog). */
export function meetingJobs(deps: PlatformDeps): JobDefinition<any>[] {
  return [
    defineJob({
      name: FINALIZE_JOB,
      payload: Type.Object({ meeting_id: Type.String() }),
      retry: { maxAttempts: 12, backoffMs: 2_000, maxBackoffMs: 10 * 60_000 },
      timeoutMs: 60_000,
      handler: async ({ meeting_id }) => deps.meetings.lifecycle.finalize(meeting_id),
    }),
  ];
}

const SWEEP_INTERVAL_MS = 15_000;

/** Ends meetings past their duration limit, or held by no process, when no socket timer does. */
export function meetingSweeper(deps: PlatformDeps): BackgroundWorker {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();
  return {
    name: 'meeting-sweeper',
    start() {
      timer = setInterval(() => {
        running = deps.meetings.lifecycle
          .sweep()
          .catch((error) => deps.logger.warn({ err: error }, 'meeting sweep failed'));
      }, SWEEP_INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
