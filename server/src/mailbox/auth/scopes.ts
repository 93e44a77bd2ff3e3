import { AppError } from '../../core/http/errors.ts';
import type { MailboxPrincipal } from './principal.ts';

/**
 * The closed set of scope names of the mailbox API, each with what it allows (docs/mailbox.md,
 * "Scopes"). Every /v0 route declares exactly one of them as `config: { scope }`.
 */
export const SCOPES = {
  'inboxes.read': 'list and read inboxes and pods',
  'inboxes.write': 'create, change and delete inboxes; create pods',
  'messages.read': 'read messages, threads, attachments, raw MIME, events, search; open WebSockets',
  'messages.write': 'change labels, trash, delete and restore messages and threads',
  'messages.send': 'send, reply, forward, send a draft, schedule and cancel a scheduled send',
  'drafts.read': 'list and read drafts',
  'drafts.write': 'create, change and delete drafts',
  'webhooks.read': 'list and read webhooks and their deliveries',
  'webhooks.write': 'create, change and delete webhooks; retry a delivery',
  'lists.read': 'read block and allow lists',
  'lists.write': 'add to and remove from block and allow lists',
  'domains.read': 'list and read custom domains',
  'domains.write': 'add custom domains and verify them',
  'keys.manage': 'manage scoped API keys (the admin key only, whatever the scopes)',
} as const;

export type MailboxScope = keyof typeof SCOPES;
export const SCOPE_NAMES = Object.keys(SCOPES) as MailboxScope[];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The one scope a /v0 route needs from a key (checked by installMailboxAuth). */
    scope?: MailboxScope;
  }
}

export const isMailboxScope = (name: unknown): name is MailboxScope =>
  typeof name === 'string' && Object.hasOwn(SCOPES, name);

const resourceOf = (scope: MailboxScope) => scope.slice(0, scope.indexOf('.'));
const RESOURCES = new Set(SCOPE_NAMES.map(resourceOf));
/** Scopes that only read: what a platform key's `mailbox:read` maps onto. */
const isReadScope = (scope: MailboxScope) => scope.endsWith('.read');

/** What a key may be created with: a scope name, `*` (everything) or `<resource>.*`. */
export function isGrantableName(name: string): boolean {
  if (name === '*' || isMailboxScope(name)) return true;
  return name.endsWith('.*') && RESOURCES.has(name.slice(0, -2));
}

/**
 * The scopes a scoped key's stored names grant: `*` is everything, `messages.*` every
 * `messages.` scope, and `x.write` also grants `x.read` (what one may change one may see).
 * `messages.send` grants no reading: a key can send without seeing the mailbox. Names outside the
 * set (stored before they were checked) grant nothing and are returned as `unknown`.
 */
export function grantsOf(names: readonly string[]): { grants: Set<MailboxScope>; unknown: string[] } {
  const grants = new Set<MailboxScope>();
  const unknown: string[] = [];
  for (const name of names) {
    if (!isGrantableName(name)) {
      unknown.push(name);
      continue;
    }
    for (const scope of SCOPE_NAMES) {
      if (name === '*' || name === scope || name === `${resourceOf(scope)}.*`) grants.add(scope);
    }
    if (name.endsWith('.write')) grants.add(name.replace(/\.write$/, '.read') as MailboxScope);
  }
  return { grants, unknown };
}

/** A platform key's own scopes mapped onto the set: `mailbox:read` reads, `mailbox:write` writes. */
export function platformGrantsOf(platformScopes: readonly string[]): Set<MailboxScope> {
  const read = platformScopes.includes('mailbox:read');
  const write = platformScopes.includes('mailbox:write');
  return new Set(SCOPE_NAMES.filter((scope) => (isReadScope(scope) ? read : write)));
}

/** The name a principal must be given to pass: a platform key's own vocabulary, else the scope. */
function missingName(principal: MailboxPrincipal, scope: MailboxScope): string {
  if (principal.kind !== 'platform') return scope;
  return isReadScope(scope) ? 'mailbox:read' : 'mailbox:write';
}

/** 403 `insufficient_scope` whose message and `param` name the scope the key lacks. */
export function requireScope(principal: MailboxPrincipal, scope: MailboxScope): void {
  if (principal.grants === null || principal.grants.has(scope)) return;
  const missing = missingName(principal, scope);
  const needed = missing === scope ? '' : ` (needed for ${scope})`;
  throw new AppError('insufficient_scope', `This API key lacks the ${missing} scope${needed}.`, {
    param: missing,
  });
}
