import type { CoreDeps } from '../core/deps.ts';
import { outboundPolicyFor } from '../core/outbound/address-policy.ts';
import { type AnalysisServices, createAnalysisServices } from '../platform/analyses/wiring.ts';
import { API_SECRET_CHANGED_CHANNEL, ApiKeyVerifier } from '../platform/api-secrets/key-verifier.ts';
import { ApiSecretService } from '../platform/api-secrets/service.ts';
import { createEventEmitter, type EventEmitter } from '../platform/events/emitter.ts';
import type { AccountCreatedHook } from '../platform/identity/accounts.ts';
import { OidcVerifier } from '../platform/identity/oidc.ts';
import { IdentityService } from '../platform/identity/service.ts';
import { TokenService } from '../platform/identity/tokens.ts';
import { createMeetingsServices, type MeetingsServices } from '../platform/live/wiring.ts';
import { type AuthoringServices, createAuthoringServices } from '../platform/scenarios/wiring.ts';
import { WebhookEndpointService } from '../platform/webhooks/service.ts';

/** The platform's services, built once per process and handed to routes and workers. */
export interface PlatformDeps extends CoreDeps, AuthoringServices, AnalysisServices, MeetingsServices {
  tokens: TokenService;
  oidc: OidcVerifier | null;
  identity: IdentityService;
  apiKeys: ApiKeyVerifier;
  apiSecrets: ApiSecretService;
  /** Run inside the transaction that creates a workspace (seeding). */
  accountHooks: AccountCreatedHook[];
  /** Emit platform events (and legacy webhooks) inside the caller's transaction. */
  events: EventEmitter;
  webhooks: WebhookEndpointService;
}

const USAGE_FLUSH_MS = 10_000;

export async function createPlatformDeps(core: CoreDeps): Promise<PlatformDeps> {
  const { db, clock, secretBox, config } = core;
  const tokens = await TokenService.load({ db, secretBox, clock, issuer: config.publicUrl });
  const accountHooks: AccountCreatedHook[] = [];
  const apiKeys = new ApiKeyVerifier(db, clock);

  const unlisten = await core.database.listen(API_SECRET_CHANGED_CHANNEL, (lookupHash) =>
    apiKeys.evict(lookupHash),
  );
  const flush = setInterval(() => {
    apiKeys.flushUsage().catch((error) => core.logger.warn({ err: error }, 'could not record API key usage'));
  }, USAGE_FLUSH_MS);
  flush.unref();
  core.disposers.push(unlisten, async () => {
    clearInterval(flush);
    await apiKeys.flushUsage();
  });

  return {
    ...core,
    tokens,
    oidc: config.oidc ? new OidcVerifier(config.oidc.issuer, config.oidc.audience, clock) : null,
    identity: new IdentityService({ db, clock, tokens, accountHooks }),
    apiKeys,
    apiSecrets: new ApiSecretService({ db, clock, apiKeys, paginator: core.paginator }),
    accountHooks,
    ...createAuthoringServices(core, accountHooks),
    ...createAnalysisServices(core),
    ...createMeetingsServices(core),
    events: createEventEmitter({ clock, secretBox, legacyWebhookSunset: config.legacyWebhookSunset }),
    webhooks: new WebhookEndpointService({
      db,
      clock,
      secretBox,
      paginator: core.paginator,
      outboundPolicy: outboundPolicyFor(config),
    }),
  };
}
