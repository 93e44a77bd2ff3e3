import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import { identityRepository } from './repository.ts';

export interface NewWorkspace {
  accountId: string;
  membershipId: string;
}

/** Runs inside the transaction that creates a workspace (e.g. to seed default scenarios). */
export type AccountCreatedHook = (tx: Transaction<DB>, workspace: NewWorkspace) => Promise<void>;

/** Creates a workspace owned by `userId`, with its membership, and runs the seeding hooks. */
export async function createWorkspace(
  tx: Transaction<DB>,
  deps: { clock: Clock; hooks: readonly AccountCreatedHook[] },
  input: { userId: string; name: string },
): Promise<NewWorkspace & { createdAt: Date }> {
  const now = deps.clock.now();
  const workspace = { accountId: randomUUID(), membershipId: randomUUID() };
  await identityRepository.insertAccount(tx, { id: workspace.accountId, name: input.name, created_at: now });
  await identityRepository.insertMembership(tx, {
    id: workspace.membershipId,
    account_id: workspace.accountId,
    user_id: input.userId,
    role: 'owner',
    created_at: now,
  });
  for (const hook of deps.hooks) await hook(tx, workspace);
  return { ...workspace, createdAt: now };
}
