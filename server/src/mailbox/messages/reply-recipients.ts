import { bareAddress } from './addresses.ts';

export interface RepliedTo {
  direction: 'inbound' | 'outbound';
  from: string;
  reply_to: string[];
  to: string[];
  cc: string[];
}

/**
 * Who a reply goes to, as a mail client addresses it. Reply: the original's Reply-To, else its
 * sender; for a reply to mail this inbox sent, its recipients. Reply-all adds the sender (also
 * when Reply-To names someone else, so the author is never dropped) to To, and the original To
 * and Cc to Cc. The inbox itself is never addressed and no address appears twice (compared
 * without display names or case). Addresses the caller gives are kept as given.
 */
export function replyRecipients(
  original: RepliedTo,
  self: string,
  ask: { to?: string[]; cc: string[]; replyAll: boolean },
): { to: string[]; cc: string[] } {
  const seen = new Set<string>([self.toLowerCase()]);
  const mark = (addresses: string[]) => {
    for (const address of addresses) seen.add(bareAddress(address));
  };
  const fresh = (addresses: string[]) =>
    addresses.filter((address) => {
      const bare = bareAddress(address);
      if (seen.has(bare)) return false;
      seen.add(bare);
      return true;
    });
  const inbound = original.direction === 'inbound';
  const answered = inbound ? (original.reply_to.length ? original.reply_to : [original.from]) : original.to;

  // What the caller names is kept as given, even the inbox itself if asked for.
  let to: string[];
  if (ask.to !== undefined) {
    mark(ask.to);
    to = ask.to;
  } else {
    to = fresh(inbound && ask.replyAll ? [...answered, original.from] : answered);
  }
  mark(ask.cc);
  const derivedCc = ask.replyAll ? fresh(inbound ? [...original.to, ...original.cc] : original.cc) : [];
  // A reply-all whose only other party is on Cc still needs someone on To.
  if (to.length === 0 && ask.to === undefined) return { to: derivedCc, cc: ask.cc };
  return { to, cc: [...ask.cc, ...derivedCc] };
}
