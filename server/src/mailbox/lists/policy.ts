import type { Selectable } from 'kysely';
import type { MailboxTables } from '../tables.ts';

type Entry = MailboxTables['mailbox_list_entries'];
export type ListEntryRow = Selectable<Entry>;
export type ListKind = Entry['list'];
export type ListDirection = Entry['direction'];
export type ListLevel = 'inbox' | 'pod' | 'namespace';

/** Narrowest first: the first level with an opinion decides. */
const LEVELS: ListLevel[] = ['inbox', 'pod', 'namespace'];

/** Where a list applies: an inbox, with its pod (if any) and namespace. */
export interface ListPlace {
  namespaceId: string;
  podId: string | null;
  inboxId: string;
}

/** What the lists of a place say about some addresses, read in one query. */
export interface ListEvidence {
  /** Entries (both lists, every level of the place) whose value is one of the addresses or their domains. */
  matches: ListEntryRow[];
  /** The levels that have an allow list (any entry) for the direction. */
  allowLevels: ListLevel[];
}

/** Why an address is refused: a block entry, or an allow list it is not on (`entry` null). */
export type ListRefusal =
  | { list: 'block'; level: ListLevel; entry: ListEntryRow }
  | { list: 'allow'; level: ListLevel; entry: null };

export const levelOf = (entry: Pick<Entry, 'inbox_id' | 'pod_id'>): ListLevel =>
  entry.inbox_id ? 'inbox' : entry.pod_id ? 'pod' : 'namespace';

/** An address and every domain that covers it: `x@a.b.example.com` → a.b.example.com, b.example.com, example.com. */
export function addressKeys(address: string): string[] {
  const bare = address.toLowerCase();
  const domain = bare.slice(bare.lastIndexOf('@') + 1);
  const parts = domain.split('.');
  const domains = parts.slice(0, -1).map((_, index) => parts.slice(index).join('.'));
  return [bare, ...(domains.length ? domains : [domain])];
}

/**
 * The lists' verdict on one address (docs/mailbox.md, "Allow and block lists"): levels are asked
 * narrowest first; at a level, a matching block entry refuses, a matching allow entry admits, and an
 * allow list the address is not on refuses; a level with neither says nothing and the next decides.
 * Admitted when no level decides. The most specific entry is named: an address before a domain,
 * a subdomain before its parent.
 */
export function verdictFor(address: string, evidence: ListEvidence): ListRefusal | null {
  const keys = addressKeys(address);
  const rank = (entry: ListEntryRow) => keys.indexOf(entry.value);
  for (const level of LEVELS) {
    const here = evidence.matches
      .filter((entry) => levelOf(entry) === level && keys.includes(entry.value))
      .sort((a, b) => rank(a) - rank(b));
    const block = here.find((entry) => entry.list === 'block');
    if (block) return { list: 'block', level, entry: block };
    if (here.length > 0) return null;
    if (evidence.allowLevels.includes(level)) return { list: 'allow', level, entry: null };
  }
  return null;
}

/** `blocked_by` of `message.received.blocked`: the entry, or the allow list the sender is not on. */
export const presentRefusal = (refusal: ListRefusal) => ({
  list: refusal.list,
  scope: refusal.level,
  entry_id: refusal.entry?.id ?? null,
  kind: refusal.entry?.kind ?? null,
  value: refusal.entry?.value ?? null,
});

/** A sentence for error messages: "blocked by the pod's send block list (example.com)". */
export function describeRefusal(refusal: ListRefusal, direction: ListDirection): string {
  const owner = refusal.level === 'namespace' ? 'workspace' : refusal.level;
  return refusal.entry
    ? `blocked by the ${owner}'s ${direction} block list (${refusal.entry.value}, entry ${refusal.entry.id})`
    : `not on the ${owner}'s ${direction} allow list`;
}
