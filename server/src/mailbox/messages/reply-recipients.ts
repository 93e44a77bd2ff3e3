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
 * and Cc to Cc. The inbox itself is not addressed and no address appears twice (compared
 * without display names or case). Addresses the caller gives are kept as given.
 *
 * Without `to`, a reply always has a To: when the rules above leave nobody (the original came
 * from the inbox itself, or its Reply-To names only the inbox), it goes to the message's sender as
 * AgentMail addresses a reply: its Reply-To, else its From, someone other than the inbox first,
 * and the inbox itself when nobody else is named (mail the inbox sent to itself).
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
  if (to.length === 0 && ask.to === undefined) {
    // A reply-all whose only other party is on Cc still needs someone on To.
    if (derivedCc.length) return { to: derivedCc, cc: ask.cc };
    return { to: senderOf(original, self, ask.cc), cc: ask.cc };
  }
  return { to, cc: [...ask.cc, ...derivedCc] };
}

/**
 * The message's sender, for a reply the usual rules leave without a To: its Reply-To, else its
 * From; someone other than the inbox when either names one, else the inbox itself. An address
 * the caller already put on Cc is not repeated on To.
 */
function senderOf(original: RepliedTo, self: string, cc: string[]): string[] {
  const inbox = self.toLowerCase();
  const named = [original.reply_to, [original.from]].map((list) => list.filter((address) => address.trim()));
  const sender =
    named
      .map((list) => list.filter((address) => bareAddress(address) !== inbox))
      .find((list) => list.length) ??
    named.find((list) => list.length) ??
    [];
  const onCc = new Set(cc.map(bareAddress));
  return [...new Map(sender.map((address) => [bareAddress(address), address])).entries()]
    .filter(([bare]) => !onCc.has(bare))
    .map(([, address]) => address);
}
