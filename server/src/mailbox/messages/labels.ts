import { invalidParam } from '../../core/http/errors.ts';
import { TRASH } from '../threads/repository.ts';

/** Labels that record what happened to a message; only the service sets them. */
export const SYSTEM_LABELS = new Set(['received', 'sent', 'rejected', 'blocked', 'scheduled', 'cancelled']);

/**
 * Refuses the labels only the service sets (and `trash`, which DELETE and restore manage) in a
 * caller's list: a client could otherwise make its mail look received, sent or trashed.
 */
export function checkCallerLabels(labels: readonly string[] | null | undefined, param: string): void {
  (labels ?? []).forEach((label, index) => {
    if (SYSTEM_LABELS.has(label))
      throw invalidParam(`${param}[${index}]`, `${label} is set by the service and cannot be changed.`);
    // One way in and out of the trash, which also moves whole threads: DELETE and restore.
    if (label === TRASH)
      throw invalidParam(
        `${param}[${index}]`,
        'trash is set by DELETE …/messages/{message_id} and removed by POST …/restore.',
      );
  });
}
