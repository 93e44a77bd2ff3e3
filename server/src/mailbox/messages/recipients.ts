import type { OutboundRecipient } from '../tables.ts';
import { bareAddress } from './addresses.ts';
import type { RecipientResult } from './transport.ts';

/** Each address once (the first of to, cc, bcc names its type), all pending. */
export function initialRecipients(
  lists: { to: string[]; cc: string[]; bcc: string[] },
  now: Date,
): OutboundRecipient[] {
  const seen = new Set<string>();
  const recipients: OutboundRecipient[] = [];
  for (const type of ['to', 'cc', 'bcc'] as const) {
    for (const written of lists[type]) {
      const address = bareAddress(written);
      if (seen.has(address)) continue;
      seen.add(address);
      recipients.push({
        address,
        type,
        status: 'pending',
        attempts: 0,
        last_response: null,
        updated_at: now.toISOString(),
      });
    }
  }
  return recipients;
}

/** Still to be tried: never tried, or deferred by an earlier attempt. */
export const isOpen = (recipient: OutboundRecipient) =>
  recipient.status === 'pending' || recipient.status === 'deferred';

/** The recipients with this attempt's outcomes for `addresses` written in. */
export function withOutcomes(
  recipients: OutboundRecipient[],
  outcomes: Map<string, Pick<OutboundRecipient, 'status' | 'last_response'>>,
  now: Date,
): OutboundRecipient[] {
  return recipients.map((recipient) => {
    const outcome = outcomes.get(recipient.address);
    if (!outcome) return recipient;
    return { ...recipient, ...outcome, attempts: recipient.attempts + 1, updated_at: now.toISOString() };
  });
}

/** The relay's answers as recipient outcomes. */
export function relayOutcomes(results: RecipientResult[]) {
  const status = { accepted: 'sent', deferred: 'deferred', rejected: 'rejected' } as const;
  return new Map(
    results.map((result) => [
      result.address.toLowerCase(),
      { status: status[result.outcome], last_response: result.response },
    ]),
  );
}

/** Deferred recipients of the last attempt are given up on. */
export function givenUp(recipients: OutboundRecipient[], attempts: number, now: Date): OutboundRecipient[] {
  return recipients.map((recipient) =>
    isOpen(recipient)
      ? {
          ...recipient,
          status: 'rejected',
          last_response: `gave up after ${attempts} attempts: ${recipient.last_response ?? 'no answer'}`,
          updated_at: now.toISOString(),
        }
      : recipient,
  );
}
