import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planServe, RoleError } from './roles.ts';

const plan = (args: string[], runWorkers = true) => {
  const { roles, workersOf } = planServe(args, runWorkers);
  return { roles: [...roles].sort(), workersOf: [...workersOf].sort() };
};

test('serve with no role runs every role, the workers unless RUN_WORKERS=false', () => {
  assert.deepEqual(plan([]).roles, ['api', 'mailbox', 'smtp', 'worker']);
  assert.deepEqual(plan([], false).roles, ['api', 'mailbox', 'smtp']);
});

test('--role takes one or more roles, as a separate argument, with = or repeated', () => {
  assert.deepEqual(plan(['--role', 'api']).roles, ['api']);
  assert.deepEqual(plan(['--role=smtp,worker']).roles, ['smtp', 'worker']);
  assert.deepEqual(plan(['--role', 'mailbox', '--role=api']).roles, ['api', 'mailbox']);
  // Asked for by name, the worker role runs whatever RUN_WORKERS says, for both services.
  assert.deepEqual(plan(['--role', 'worker'], false), {
    roles: ['worker'],
    workersOf: ['mailbox', 'platform'],
  });
});

test('--only keeps meaning one service with its own workers', () => {
  assert.deepEqual(plan(['--only=platform']), { roles: ['api', 'worker'], workersOf: ['platform'] });
  assert.deepEqual(plan(['--only=mailbox'], false), { roles: ['mailbox', 'smtp'], workersOf: ['mailbox'] });
});

test('unknown roles, arguments and combinations are refused', () => {
  assert.throws(() => planServe(['--role', 'web'], true), RoleError);
  assert.throws(() => planServe(['--role'], true), RoleError);
  assert.throws(() => planServe(['--only=both'], true), RoleError);
  assert.throws(() => planServe(['--only=platform', '--role=api'], true), RoleError);
  assert.throws(() => planServe(['--verbose'], true), RoleError);
});
