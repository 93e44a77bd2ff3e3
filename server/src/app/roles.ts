/**
 * What one `serve` process runs. Each role can be its own process (issue 15), so that an SMTP or a
 * worker crash does not take the API down; with no role the process runs them all, as before.
 *   api      the platform HTTP API (/v1, the dashboard, the meeting rooms' WebSockets)
 *   mailbox  the mailbox HTTP API (/v0 and its WebSockets)
 *   smtp     the inbound SMTP listener
 *   worker   the background workers (job queues, deliveries, retention) of both services
 */
export const ROLES = ['api', 'mailbox', 'smtp', 'worker'] as const;
export type Role = (typeof ROLES)[number];

export interface ServePlan {
  roles: ReadonlySet<Role>;
  /** Whose workers the worker role runs: `--only=` keeps a service's workers with its own API. */
  workersOf: ReadonlySet<'platform' | 'mailbox'>;
}

export class RoleError extends Error {}

/**
 * `--role api,worker` (or `--role=api`, repeatable); `--only=platform|mailbox` (the older flag) is
 * that service's roles; nothing is every role, the workers unless RUN_WORKERS=false.
 */
export function planServe(args: readonly string[], runWorkers: boolean): ServePlan {
  const both = new Set(['platform', 'mailbox'] as const);
  const named: string[] = [];
  let only: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--role') named.push(...(args[++i] ?? '').split(','));
    else if (arg.startsWith('--role=')) named.push(...arg.slice('--role='.length).split(','));
    else if (arg.startsWith('--only=')) only = arg.slice('--only='.length);
    else throw new RoleError(`unknown argument ${arg}`);
  }
  if (named.length > 0 && only !== null) throw new RoleError('--role and --only cannot be combined');
  if (only !== null) {
    if (only !== 'platform' && only !== 'mailbox') throw new RoleError('--only must be platform or mailbox');
    const roles: Role[] = only === 'platform' ? ['api'] : ['mailbox', 'smtp'];
    if (runWorkers) roles.push('worker');
    return { roles: new Set(roles), workersOf: new Set([only]) };
  }
  if (named.length === 0)
    return { roles: new Set(ROLES.filter((role) => role !== 'worker' || runWorkers)), workersOf: both };
  for (const role of named)
    if (!(ROLES as readonly string[]).includes(role))
      throw new RoleError(
        `--role must be one or more of ${ROLES.join(', ')} (comma-separated), got "${role}"`,
      );
  return { roles: new Set(named as Role[]), workersOf: both };
}
