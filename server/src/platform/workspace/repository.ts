import type { Kysely, Updateable } from 'kysely';
import type { DB } from '../../core/db/schema.ts';

/** The workspace is the account row itself (`accounts`), read and changed by its id. */
export const workspaceRepository = {
  find(db: Kysely<DB>, accountId: string) {
    return db
      .selectFrom('accounts')
      .select(['id', 'name', 'meeting_retention_days', 'created_at'])
      .where('id', '=', accountId)
      .executeTakeFirst();
  },
  update(db: Kysely<DB>, accountId: string, values: Updateable<DB['accounts']>) {
    return db
      .updateTable('accounts')
      .set(values)
      .where('id', '=', accountId)
      .returning(['id', 'name', 'meeting_retention_days', 'created_at'])
      .executeTakeFirst();
  },
};
