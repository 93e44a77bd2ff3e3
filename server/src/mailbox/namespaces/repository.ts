import type { Executor } from '../db.ts';
import { newId } from '../ids.ts';

export const namespacesRepository = {
  /** The namespace of a platform workspace, created on first use (concurrent first uses agree). */
  async ensureForAccount(db: Executor, accountId: string, now: Date): Promise<string> {
    const existing = await db
      .selectFrom('mailbox_namespaces')
      .select('id')
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (existing) return existing.id;
    await db
      .insertInto('mailbox_namespaces')
      .values({ id: newId('ns'), account_id: accountId, name: `workspace ${accountId}`, created_at: now })
      .onConflict((oc) => oc.column('account_id').doNothing())
      .execute();
    const row = await db
      .selectFrom('mailbox_namespaces')
      .select('id')
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return row.id;
  },
};
