import { AppError, type FieldError } from '../../core/http/errors.ts';
import type { Executor } from '../db.ts';
import type { InboxRow } from '../inboxes/repository.ts';
import { bareAddress } from '../messages/addresses.ts';
import { describeRefusal, verdictFor } from './policy.ts';
import { listsRepository } from './repository.ts';

/**
 * The send lists' check, part of validating a send: every recipient (to, cc, bcc) must be admitted
 * by the sending inbox's send lists (its own, its pod's, its namespace's), otherwise the send is
 * refused with 400 `recipient_not_allowed` naming each refused field (`to[0]`, `bcc[1]`…) before
 * anything is composed, stored or relayed. One indexed query.
 */
export async function checkRecipientLists(
  db: Executor,
  inbox: InboxRow,
  recipients: { to: string[]; cc: string[]; bcc: string[] },
): Promise<void> {
  const fields = (['to', 'cc', 'bcc'] as const).flatMap((field) =>
    recipients[field].map((address, index) => ({
      param: `${field}[${index}]`,
      address: bareAddress(address),
    })),
  );
  if (fields.length === 0) return;
  const place = { namespaceId: inbox.namespace_id, podId: inbox.pod_id, inboxId: inbox.id };
  const evidence = await listsRepository.evidence(
    db,
    place,
    'send',
    fields.map((f) => f.address),
  );
  const errors: FieldError[] = [];
  for (const { param, address } of fields) {
    const refusal = verdictFor(address, evidence);
    if (refusal)
      errors.push({
        param,
        code: 'recipient_not_allowed',
        message: `${address} is ${describeRefusal(refusal, 'send')}.`,
      });
  }
  const [first] = errors;
  if (first) throw new AppError('recipient_not_allowed', first.message, { param: first.param, errors });
}
