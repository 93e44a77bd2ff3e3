import { Type } from 'typebox';
import type { CoreDeps } from '../../core/deps.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { defineJob, type JobQueue } from '../../core/jobs/index.ts';
import type { OutboundPolicy } from '../../core/outbound/index.ts';
import type { ObjectStorage } from '../../core/storage/index.ts';
import type { BackgroundWorker } from '../../core/workers.ts';
import type { EventEmitter } from '../events/emitter.ts';
import { JOB_NAMES } from '../job-names.ts';
import type { PeopleService } from '../people/service.ts';
import type { ScenarioService } from '../scenarios/service.ts';
import { MeetingDeletion, purgeMediaJob } from './deletion.ts';
import { MeetingLifecycle } from './lifecycle.ts';
import { MeetingRetention } from './retention.ts';
import { meetingRoutes } from './routes.ts';
import { MeetingService } from './service.ts';

export interface MeetingsModuleDeps
  extends Pick<CoreDeps, 'db' | 'database' | 'clock' | 'config' | 'logger' | 'paginator'> {
  events: EventEmitter;
  jobs: JobQueue;
  /** Where recordings are stored: a deleted meeting's objects are removed from it. */
  storage: ObjectStorage;
  outboundPolicy: OutboundPolicy;
  scenarios: Pick<ScenarioService, 'render'>;
  /** Finds or makes the person a new meeting belongs to (docs/people.md). */
  people: Pick<PeopleService, 'resolve'>;
}

const SWEEP_INTERVAL_MS = 15_000;

/** Meetings and their state machine; `meeting.finalize` runs what follows the end. */
export function createMeetingsModule(deps: MeetingsModuleDeps) {
  const { db, database, clock, config, logger, events, jobs, scenarios } = deps;
  const lifecycle = new MeetingLifecycle({ database, clock, events, jobs, logger });
  const deletion = new MeetingDeletion({ db, clock, events, jobs });
  const retention = new MeetingRetention({ db, clock, jobs, deletion, logger });
  const service = new MeetingService({
    db,
    clock,
    events,
    lifecycle,
    deletion,
    paginator: deps.paginator,
    publicUrl: config.publicUrl,
    llmModel: config.llm?.model ?? null,
    outboundPolicy: deps.outboundPolicy,
    people: deps.people,
  });
  const finalize = defineJob({
    name: JOB_NAMES.meetingFinalize,
    payload: Type.Object({ meeting_id: Type.String() }),
    retry: { maxAttempts: 12, backoffMs: 2_000, maxBackoffMs: 10 * 60_000 },
    timeoutMs: 60_000,
    handler: async ({ meeting_id }, context) => lifecycle.finalize(meeting_id, context.completeWithin),
  });
  return {
    service,
    lifecycle,
    retention,
    routes: [(app: AppInstance) => meetingRoutes(app, { meetings: { service }, scenarios })],
    jobs: [finalize, purgeMediaJob(deps.storage), retention.job()],
    workers: [meetingSweeper(lifecycle, logger), retention.worker()],
  };
}

/** Ends meetings past their duration limit, or held by no process, when no socket timer does. */
function meetingSweeper(lifecycle: MeetingLifecycle, logger: CoreDeps['logger']): BackgroundWorker {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();
  return {
    name: 'meeting-sweeper',
    start() {
      timer = setInterval(() => {
        running = lifecycle.sweep().catch((error) => logger.warn({ err: error }, 'meeting sweep failed'));
      }, SWEEP_INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
