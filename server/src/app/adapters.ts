// The adapters both services share, built once per process by the composition root and handed to
// each module as narrow dependencies (docs/decisions/0004-composition-root.md).
import type { CoreDeps } from '../core/deps.ts';
import { JobQueue } from '../core/jobs/index.ts';
import { createLlmClient, type LlmClient } from '../core/llm/index.ts';
import { OutboundClient, type OutboundPolicy, outboundPolicyFor } from '../core/outbound/index.ts';
import { createStorage, type ObjectStorage } from '../core/storage/index.ts';
import { ApiKeyVerifier } from '../platform/api-secrets/key-verifier.ts';
import { API_SECRET_CHANGED_CHANNEL } from '../platform/api-secrets/repository.ts';
import { createEventEmitter, type EventEmitter } from '../platform/events/emitter.ts';
import { TokenService } from '../platform/identity/tokens.ts';
import { UserTokenVerifier } from '../platform/identity/user-tokens.ts';

export interface SharedAdapters {
  /** HTTPS-only in production; blocked ranges reachable only where OUTBOUND_ALLOW_CIDRS says. */
  outboundPolicy: OutboundPolicy;
  /** The SSRF-safe client of every outbound call: webhooks, custom agents and functions. */
  outbound: OutboundClient;
  /** Recordings, uploads and mail, on local disk or S3. */
  storage: ObjectStorage;
  /** The configured language model, or null: the offline engines run. */
  llm: LlmClient | null;
  /** Enqueues durable jobs inside the caller's transaction. */
  jobs: JobQueue;
  /** Emits platform events (and legacy webhooks) inside the caller's transaction. */
  events: EventEmitter;
  /** Verifies `svc_` keys for both services; revocations arrive by NOTIFY. */
  apiKeys: ApiKeyVerifier;
  /** Verifies user tokens for both services (the mailbox takes a signed-in admin's, docs/mailbox.md). */
  userTokens: UserTokenVerifier;
}

export interface AdapterOverrides {
  storage?: ObjectStorage;
}

const USAGE_FLUSH_MS = 10_000;

export async function createSharedAdapters(
  core: CoreDeps,
  overrides: AdapterOverrides = {},
): Promise<SharedAdapters> {
  const { config, clock, secretBox, database, logger } = core;
  const outboundPolicy = outboundPolicyFor(config);
  const outbound = new OutboundClient(outboundPolicy);
  core.disposers.push(() => outbound.close());
  return {
    outboundPolicy,
    outbound,
    storage: overrides.storage ?? createStorage(config, secretBox.deriveKey('storage-url'), clock),
    llm: config.llm ? createLlmClient(config.llm) : null,
    jobs: new JobQueue(clock),
    events: createEventEmitter({ clock, secretBox, legacyWebhookSunset: config.legacyWebhookSunset }),
    apiKeys: await startKeyVerifier(core, logger),
    userTokens: new UserTokenVerifier(
      await TokenService.load({ db: core.db, secretBox, clock, issuer: config.publicUrl }),
      core.db,
    ),
  };
}

/** The verifier, its revocation listener and the loop that writes `last_used_at` in batches. */
async function startKeyVerifier(core: CoreDeps, logger: CoreDeps['logger']): Promise<ApiKeyVerifier> {
  const apiKeys = new ApiKeyVerifier(core.db, core.clock);
  const unlisten = await core.database.listen(API_SECRET_CHANGED_CHANNEL, (lookupHash) =>
    apiKeys.evict(lookupHash),
  );
  const flush = setInterval(() => {
    apiKeys.flushUsage().catch((error) => logger.warn({ err: error }, 'could not record API key usage'));
  }, USAGE_FLUSH_MS);
  flush.unref();
  core.disposers.push(unlisten, async () => {
    clearInterval(flush);
    await apiKeys.flushUsage();
  });
  return apiKeys;
}
