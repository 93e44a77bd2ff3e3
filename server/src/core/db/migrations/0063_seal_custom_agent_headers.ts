import { sql } from 'kysely';
import { SecretBox } from '../../crypto/secret-box.ts';
import type { CodeMigration } from '../migrator.ts';

/**
 * A custom agent's extra headers may carry a credential: their values are now sealed with the
 * SecretBox (names stay readable). This seals the values stored in clear before that change.
 */
export const sealCustomAgentHeaders: CodeMigration = {
  version: 63,
  name: '0063_seal_custom_agent_headers',
  async run(tx, { secretBox }) {
    const rows = await tx
      .selectFrom('scenarios')
      .select(['id', 'custom_agent_extra_headers'])
      .where(sql<boolean>`custom_agent_extra_headers <> '{}'::jsonb`)
      .execute();
    for (const row of rows) {
      const sealed = Object.fromEntries(
        Object.entries(row.custom_agent_extra_headers ?? {}).map(([name, value]) => [
          name,
          // A row written by the new code before this ran (a fresh template) is already sealed.
          SecretBox.looksSealed(String(value)) ? String(value) : secretBox.seal(String(value)),
        ]),
      );
      await tx
        .updateTable('scenarios')
        .set({ custom_agent_extra_headers: JSON.stringify(sealed) })
        .where('id', '=', row.id)
        .execute();
    }
  },
};
