import { DeliveryQueue } from '../core/delivery/queue.ts';
import { DeliveryWorker } from '../core/delivery/worker.ts';
import type { CoreDeps } from '../core/deps.ts';
import { JobCatalog, JobQueue, JobRunner } from '../core/jobs/index.ts';
import type { BoundRoutes } from '../core/module.ts';
import { type LookupFn, type OutboundClient, outboundPolicyFor } from '../core/outbound/index.ts';
import type { ObjectStorage } from '../core/storage/index.ts';
import type { BackgroundWorker } from '../core/workers.ts';
import { ApiKeyService } from './api-keys/service.ts';
import {
  MailboxCredentialResolver,
  type PlatformKeyVerifier,
  type PlatformUserVerifier,
  platformKeySubject,
} from './auth/resolver.ts';
import { type DomainDns, ResolverDns } from './domains/dns.ts';
import { DomainService } from './domains/service.ts';
import { DraftService } from './drafts/service.ts';
import { type EventBus, PostgresEventBus, RedisEventBus } from './events/bus.ts';
import { EventRecorder } from './events/recorder.ts';
import { EventService } from './events/service.ts';
import { InboxService } from './inboxes/service.ts';
import { ListService } from './lists/service.ts';
import { AttachmentFetcher } from './messages/attachment-url.ts';
import { InboundMail } from './messages/ingest.ts';
import { AttachmentReader } from './messages/input.ts';
import { OutboundMail } from './messages/outbound.ts';
import { mailboxSendJob, OutboundDelivery } from './messages/send-job.ts';
import { MessageService } from './messages/service.ts';
import { type MailRelay, NoRelay, SmtpRelay } from './messages/transport.ts';
import { PageTokens } from './pagination.ts';
import { PodService } from './pods/service.ts';
import { type MailboxServices, mailboxRoutes } from './routes.ts';
import { SearchService } from './search/service.ts';
import { loadTls, SmtpListener } from './smtp/listener.ts';
import { ThreadService } from './threads/service.ts';
import { mailboxDeliveryProfile } from './webhooks/profile.ts';
import { WebhookService } from './webhooks/service.ts';
import { MailboxEventHub } from './ws/event-hub.ts';

/** What the composition root (and tests) reach of the mailbox service, built once per process. */
export interface MailboxDeps extends CoreDeps {
  mailDomain: string;
  storage: ObjectStorage;
  /** Authenticates every /v0 request. */
  resolver: MailboxCredentialResolver;
  smtp: SmtpListener;
  deliveryClient: { request: OutboundClient['request'] };
  /** Registered inside the authenticated, rate-limited /v0 scope, in this order. */
  routes: BoundRoutes[];
  /** The mailbox's queued jobs (outbound sends); tests call runOnce()/drain() on it. */
  jobs: JobRunner;
  /** The webhook delivery worker (its own channel of the shared delivery engine) and the job runner. */
  workers: BackgroundWorker[];
}

export interface MailboxOverrides {
  bus?: EventBus;
  relay?: MailRelay;
  dns?: DomainDns;
  platformKeys?: PlatformKeyVerifier | null;
  /** Channel of the event bus; tests sharing one PostgreSQL or Redis use their own. */
  eventChannel?: string;
  deliveryClient?: { request: OutboundClient['request'] };
  /** Instead of MAIL_SEND_WAIT_MS. */
  sendWaitMs?: number;
  /** DNS for vetting webhook URLs when they are stored (tests resolve names to chosen addresses). */
  lookup?: LookupFn;
}

/** What the mailbox takes from the composition root besides the core. */
export interface MailboxAdapters {
  /** The platform's user tokens: a signed-in admin's dashboard reads the mailbox with one. */
  userTokens: PlatformUserVerifier;
  storage: ObjectStorage;
  /** The shared SSRF-safe client webhooks are delivered with. */
  outbound: { request: OutboundClient['request'] };
  /** The platform's `svc_` key verifier, whose cache both services share. */
  apiKeys: {
    verify(secret: string, maxAgeMs: number): ReturnType<PlatformKeyVerifier['verify']>;
    /** Subjects of revoked platform keys, on every instance (NOTIFY api_secret_changed). */
    onRevoked(listener: (subject: string) => void): void;
  };
}

/** Revocations reach the verifier by NOTIFY; otherwise this bounds the lag (spec: at most 60 s). */
const PLATFORM_KEY_MAX_AGE_MS = 60_000;

export async function createMailboxDeps(
  deps: CoreDeps & MailboxAdapters,
  overrides: MailboxOverrides = {},
): Promise<MailboxDeps> {
  const { config, database, db, clock, secretBox, paginator, logger, redis, disposers, storage } = deps;
  // Only the core is carried on: a caller's other services (the platform's) stay out of the mailbox.
  const core: CoreDeps = { config, database, db, clock, secretBox, paginator, logger, redis, disposers };
  const bus =
    overrides.bus ??
    (core.redis
      ? new RedisEventBus(core.redis, database, overrides.eventChannel)
      : new PostgresEventBus(database, overrides.eventChannel));
  const queue = new DeliveryQueue(clock);
  const recorder = new EventRecorder(database, clock, queue, bus);
  const mailDomain = config.mailDomain.toLowerCase();
  const inbound = new InboundMail({ db, clock, storage, recorder, mailDomain });
  const relay = overrides.relay ?? (config.mailRelayUrl ? new SmtpRelay(config.mailRelayUrl) : new NoRelay());
  const delivery = new OutboundDelivery({
    db,
    clock,
    storage,
    recorder,
    relay,
    inbound,
    secretBox,
    mailDomain,
  });
  const jobs = new JobRunner({
    database,
    clock,
    catalog: new JobCatalog([mailboxSendJob(delivery)]),
    logger: core.logger.child({ worker: 'mailbox-jobs' }),
    leaseMs: config.jobs.leaseMs,
    pollIntervalMs: config.jobs.idlePollMs,
  });
  const outbound = new OutboundMail({
    db,
    clock,
    storage,
    recorder,
    queue: new JobQueue(clock),
    runNow: (jobId) => jobs.runNow(jobId),
    sendWaitMs: overrides.sendWaitMs ?? config.mailSendWaitMs,
    maxMessageBytes: config.mailMaxMessageBytes,
  });

  // Attachments given by URL are fetched with the same SSRF-safe client as webhooks.
  const attachments = new AttachmentReader({
    fetcher: new AttachmentFetcher(deps.outbound),
    maxMessageBytes: config.mailMaxMessageBytes,
  });

  const platformKeys =
    overrides.platformKeys !== undefined
      ? overrides.platformKeys
      : { verify: (secret: string) => deps.apiKeys.verify(secret, PLATFORM_KEY_MAX_AGE_MS) };

  const pageTokens = new PageTokens(secretBox.deriveKey('mailbox-page-token'));
  const hub = new MailboxEventHub(bus, config.wsMaxBufferedBytes);
  await hub.start();
  core.disposers.push(() => hub.stop());
  deps.apiKeys.onRevoked((subject) => hub.closeRevoked(platformKeySubject(subject)));
  const smtp = new SmtpListener({
    db,
    inbound,
    mailDomain,
    maxMessageBytes: config.mailMaxMessageBytes,
    tls: loadTls(config.smtpTls),
    timeouts: config.smtpTimeouts,
    logger: core.logger,
  });
  core.disposers.push(() => relay.close());

  const services: MailboxServices = {
    inboxes: new InboxService({ db, clock, storage, pageTokens, mailDomain }),
    messages: new MessageService({ db, clock, storage, recorder, outbound, attachments }),
    threads: new ThreadService({ db, clock, storage, recorder }),
    search: new SearchService({ db, pageTokens }),
    drafts: new DraftService({ db, clock, storage, recorder, outbound, pageTokens, attachments }),
    pods: new PodService({ db, clock, pageTokens }),
    domains: new DomainService({
      db,
      clock,
      secretBox,
      recorder,
      dns: overrides.dns ?? new ResolverDns(config.mailboxDnsServers),
      pageTokens,
      mailDomain,
    }),
    lists: new ListService({ db, clock, pageTokens }),
    scopedKeys: new ApiKeyService({
      db,
      clock,
      pageTokens,
      announceRevocation: (subject) => bus.publishRevocation(subject),
    }),
    webhooks: new WebhookService({
      db,
      clock,
      secretBox,
      queue,
      pageTokens,
      outboundPolicy: outboundPolicyFor(config),
      ...(overrides.lookup ? { lookup: overrides.lookup } : {}),
    }),
    events: new EventService({ db, pageTokens }),
    hub,
  };
  const deliveryClient = overrides.deliveryClient ?? deps.outbound;
  return {
    ...core,
    mailDomain,
    storage,
    resolver: new MailboxCredentialResolver({
      db,
      clock,
      adminKey: config.mailboxAdminKey,
      platformKeys,
      platformUsers: overrides.platformKeys === null ? null : deps.userTokens,
      logger: core.logger,
    }),
    smtp,
    deliveryClient,
    routes: mailboxRoutes(services),
    jobs,
    workers: [
      deliveryWorker({ ...core, client: deliveryClient }),
      { name: 'mailbox-jobs', start: () => jobs.start(), stop: () => jobs.stop() },
    ],
  };
}

/** Delivers mailbox webhooks: its own channel of the shared delivery engine. */
function deliveryWorker(
  deps: Pick<CoreDeps, 'database' | 'clock' | 'secretBox' | 'logger' | 'config'> & {
    client: { request: OutboundClient['request'] };
  },
): BackgroundWorker {
  const worker = new DeliveryWorker({
    database: deps.database,
    clock: deps.clock,
    client: deps.client,
    profiles: [mailboxDeliveryProfile(deps.secretBox)],
    pollIntervalMs: deps.config.jobs.idlePollMs,
    leaseMs: deps.config.jobs.deliveryLeaseMs,
    logger: {
      info: (details, message) => deps.logger.info(details, message),
      warn: (details, message) => deps.logger.warn(details, message),
      error: (details, message) => deps.logger.error(details, message),
    },
  });
  return { name: 'mailbox-webhook-deliveries', start: () => worker.start(), stop: () => worker.stop() };
}
