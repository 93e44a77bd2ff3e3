// The platform's composition root: every module is built here exactly once, from the core and the
// shared adapters, and hands back its services and its parts (routes, jobs, workers).
import type { CoreDeps } from '../core/deps.ts';
import { purgeExpiredIdempotencyKeys } from '../core/http/idempotency-repository.ts';
import { JobCatalog, type JobDefinition } from '../core/jobs/index.ts';
import type { BoundRoutes } from '../core/module.ts';
import { type BackgroundWorker, periodic } from '../core/workers.ts';
import { createAnalysesModule } from '../platform/analyses/wiring.ts';
import { createAnalyticsModule } from '../platform/analytics/wiring.ts';
import { createApiSecretsModule } from '../platform/api-secrets/wiring.ts';
import { createAssignmentsModule } from '../platform/assignments/wiring.ts';
import { createCustomFunctionsModule } from '../platform/custom-functions/wiring.ts';
import { createDashboardModule } from '../platform/dashboard/wiring.ts';
import { createEventsModule } from '../platform/events/wiring.ts';
import { createFeedbackModule } from '../platform/feedback/wiring.ts';
import { createGoalsModule } from '../platform/goals/wiring.ts';
import { createGuardrailsModule } from '../platform/guardrails/wiring.ts';
import { createIdentityModule } from '../platform/identity/wiring.ts';
import { createLiveModule, type LiveHubOverrides } from '../platform/live/wiring.ts';
import { createMeetingsModule } from '../platform/meetings/wiring.ts';
import { createMemoriesModule } from '../platform/memories/wiring.ts';
import { createPeopleModule } from '../platform/people/wiring.ts';
import { createPersonasModule } from '../platform/personas/wiring.ts';
import { createRecordingsModule } from '../platform/recordings/wiring.ts';
import { createReferenceModule } from '../platform/reference/wiring.ts';
import { createReportsModule } from '../platform/reports/wiring.ts';
import { createRoomModule } from '../platform/room/wiring.ts';
import { createScenariosModule } from '../platform/scenarios/wiring.ts';
import { createSessionsModule } from '../platform/sessions/wiring.ts';
import type { SpeechEngines } from '../platform/speech/types.ts';
import { closeSpeechEngines, createSpeechEngines } from '../platform/speech/wiring.ts';
import { AuditLog } from '../platform/team/audit.ts';
import { createTeamModule } from '../platform/team/wiring.ts';
import { createTranscriptsModule } from '../platform/transcripts/wiring.ts';
import { createUsageModule } from '../platform/usage/wiring.ts';
import { createWebhooksModule } from '../platform/webhooks/wiring.ts';
import { createWorkspaceModule } from '../platform/workspace/wiring.ts';
import { createSharedAdapters, type SharedAdapters } from './adapters.ts';
import { createJobWorker } from './jobs.ts';

type Module<F extends (...args: any[]) => any> = Awaited<ReturnType<F>>;

/** The platform's services, built once per process; tests reach them as `t.deps`. */
export interface PlatformDeps extends CoreDeps, SharedAdapters {
  tokens: Module<typeof createIdentityModule>['tokens'];
  oidc: Module<typeof createIdentityModule>['oidc'];
  identity: Module<typeof createIdentityModule>['identity'];
  sessions: Module<typeof createSessionsModule>['sessions'];
  passwordResets: Module<typeof createSessionsModule>['passwordResets'];
  apiSecrets: Module<typeof createApiSecretsModule>['apiSecrets'];
  team: Module<typeof createTeamModule>['team'];
  audit: AuditLog;
  personas: Module<typeof createPersonasModule>['personas'];
  goals: Module<typeof createGoalsModule>['goals'];
  scenarios: Module<typeof createScenariosModule>['scenarios'];
  guardrails: Module<typeof createGuardrailsModule>['guardrails'];
  customFunctions: Module<typeof createCustomFunctionsModule>['functions'];
  memories: Module<typeof createMemoriesModule>['memories'];
  webhooks: Module<typeof createWebhooksModule>['webhooks'];
  analyses: Module<typeof createAnalysesModule>['analyses'];
  analysisPipeline: Module<typeof createAnalysesModule>['analysisPipeline'];
  analysisJobs: JobDefinition<any>[];
  meetings: {
    service: Module<typeof createMeetingsModule>['service'];
    lifecycle: Module<typeof createMeetingsModule>['lifecycle'];
    retention: Module<typeof createMeetingsModule>['retention'];
    hub: Module<typeof createLiveModule>['hub'];
    recordings: Module<typeof createRecordingsModule>['recordings'];
    transcripts: Module<typeof createTranscriptsModule>['transcripts'];
  };
  /** Registered inside the authenticated /v1 scope, in this order (the OpenAPI document follows it). */
  routes: BoundRoutes[];
  /** Registered outside /v1: sign-up and log-in, avatars, the room pages, API and WebSocket, storage. */
  publicRoutes: BoundRoutes[];
  /** Every platform job, each name declared once (a second declaration throws at start-up). */
  jobCatalog: JobCatalog;
  /** Every background loop: started by `serve` (unless RUN_WORKERS=false) and by `worker`. */
  workers: BackgroundWorker[];
}

export interface PlatformOptions {
  /** Tests: the live hub's timings (filler delays, idle checks …) shortened. */
  liveHub?: LiveHubOverrides;
  /** Tests: speech engines of their own (fakes, or real ones they close themselves). */
  speech?: SpeechEngines;
}

export async function createPlatformDeps(
  core: CoreDeps,
  options: PlatformOptions = {},
): Promise<PlatformDeps> {
  const shared = await createSharedAdapters(core);
  const { events, jobs, llm, outbound, outboundPolicy, storage, apiKeys } = shared;
  const { logger } = core;

  // The engines start lazily (the recogniser's sidecar, the synthesiser's worker) and are closed
  // with the process; engines a test passes in are the test's to close.
  const speech = options.speech ?? (await createSpeechEngines(core.config, logger));
  if (!options.speech) core.disposers.push(() => closeSpeechEngines(speech));
  const audit = new AuditLog(core);
  const apiSecrets = createApiSecretsModule({ ...core, apiKeys, audit });
  const personas = createPersonasModule({ ...core, synthesizer: speech.synthesizer });
  const goals = createGoalsModule(core);
  const scenarios = createScenariosModule({
    ...core,
    personas: personas.personas,
    goals: goals.goals,
    llm,
    outboundPolicy,
  });
  const identity = await createIdentityModule({
    ...core,
    accountHooks: [scenarios.seedAccount],
    tokens: shared.userTokens.tokens,
  });
  const sessions = createSessionsModule({
    ...core,
    identity: identity.identity,
    tokens: shared.userTokens.tokens,
  });
  const team = createTeamModule({
    ...core,
    jobs,
    audit,
    identity: identity.identity,
    sessions: sessions.sessions,
    keysChanged: (hashes) => apiSecrets.apiSecrets.announceRemoved(hashes),
  });
  const guardrails = createGuardrailsModule(core);
  const webhooks = createWebhooksModule({ ...core, outboundPolicy, outbound });
  const customFunctions = createCustomFunctionsModule({ ...core, outbound });
  const memories = createMemoriesModule(core);
  const feedback = createFeedbackModule(core);
  const analyses = createAnalysesModule({ ...core, events, jobs, llm });
  const people = createPeopleModule(core);
  const analytics = createAnalyticsModule(core);
  const meetings = createMeetingsModule({
    ...core,
    people: people.people,
    events,
    jobs,
    storage,
    outboundPolicy,
    scenarios: scenarios.scenarios,
  });
  const assignments = createAssignmentsModule({
    ...core,
    events,
    meetings: meetings.service,
    lifecycle: meetings.lifecycle,
    jobs,
  });
  const transcripts = createTranscriptsModule(core);
  const reports = createReportsModule(core);
  const recordings = createRecordingsModule({ ...core, events, storage });
  const usage = createUsageModule(core);
  const eventLog = createEventsModule(core);
  const workspace = createWorkspaceModule(core);
  const live = createLiveModule({
    ...core,
    lifecycle: meetings.lifecycle,
    recordings: recordings.recordings,
    feedback: feedback.feedback,
    outbound,
    llm,
    speech,
    hub: options.liveHub,
  });
  const room = createRoomModule(core);
  const reference = createReferenceModule();
  const dashboard = createDashboardModule(core);

  const jobCatalog = new JobCatalog([...meetings.jobs, ...analyses.jobs, ...team.jobs, ...assignments.jobs]);
  const deps: PlatformDeps = {
    ...core,
    ...shared,
    tokens: identity.tokens,
    oidc: identity.oidc,
    identity: identity.identity,
    sessions: sessions.sessions,
    passwordResets: sessions.passwordResets,
    apiSecrets: apiSecrets.apiSecrets,
    team: team.team,
    audit,
    personas: personas.personas,
    goals: goals.goals,
    scenarios: scenarios.scenarios,
    guardrails: guardrails.guardrails,
    customFunctions: customFunctions.functions,
    memories: memories.memories,
    webhooks: webhooks.webhooks,
    analyses: analyses.analyses,
    analysisPipeline: analyses.analysisPipeline,
    analysisJobs: analyses.jobs,
    meetings: {
      service: meetings.service,
      lifecycle: meetings.lifecycle,
      retention: meetings.retention,
      hub: live.hub,
      recordings: recordings.recordings,
      transcripts: transcripts.transcripts,
    },
    routes: [
      ...apiSecrets.routes,
      ...team.routes,
      ...personas.routes,
      ...goals.routes,
      ...scenarios.routes,
      ...live.routes,
      ...guardrails.routes,
      ...webhooks.routes,
      ...eventLog.routes,
      ...customFunctions.routes,
      ...memories.routes,
      ...feedback.routes,
      ...analyses.routes,
      ...meetings.routes,
      ...transcripts.routes,
      ...recordings.routes,
      ...usage.routes,
      ...workspace.routes,
      ...people.routes,
      ...assignments.routes,
      ...reports.routes,
      ...analytics.routes,
    ],
    publicRoutes: [
      ...personas.publicRoutes,
      ...room.publicRoutes,
      ...live.publicRoutes,
      ...recordings.publicRoutes,
      ...identity.publicRoutes,
      ...sessions.publicRoutes,
      ...team.publicRoutes,
      ...assignments.publicRoutes,
      ...reference.publicRoutes,
      ...dashboard.publicRoutes,
    ],
    jobCatalog,
    workers: [],
  };
  deps.workers = [
    ...webhooks.workers,
    ...sessions.workers,
    createJobWorker(deps),
    ...meetings.workers,
    periodic(
      'idempotency-purge',
      10 * 60 * 1000,
      () => purgeExpiredIdempotencyKeys(core.db, core.clock.now()),
      (error) => logger.warn({ err: error, worker: 'idempotency-purge' }, 'worker task failed'),
    ),
  ];
  return deps;
}
