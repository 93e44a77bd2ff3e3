import type { CoreDeps } from '../../core/deps.ts';
import { installRateLimits } from '../../core/http/rate-limit.ts';
import type { AppInstance } from '../../core/http/types.ts';
import type { JobQueue } from '../../core/jobs/index.ts';
import type { BoundRoutes } from '../../core/module.ts';
import { configuredMailer } from '../analyses/notifications.ts';
import type { IdentityService } from '../identity/service.ts';
import type { SessionService } from '../sessions/service.ts';
import type { AuditLog } from './audit.ts';
import { invitationEmailJob } from './invitation-email.ts';
import { invitationRoutes } from './invitation-routes.ts';
import { teamRoutes } from './routes.ts';
import { TeamService } from './service.ts';

/** Members, roles, invitations and the audit log (docs/teams.md). */
export function createTeamModule(
  deps: Pick<CoreDeps, 'db' | 'clock' | 'config' | 'redis' | 'secretBox' | 'disposers'> & {
    jobs: JobQueue;
    audit: AuditLog;
    identity: IdentityService;
    sessions: SessionService;
    keysChanged: (lookupHashes: string[]) => Promise<void>;
  },
) {
  const { db, clock, config, redis, secretBox, jobs, audit, identity, sessions } = deps;
  const mailer = configuredMailer(config, deps.disposers);
  const team = new TeamService({
    db,
    clock,
    secretBox,
    jobs,
    audit,
    publicUrl: config.publicUrl,
    mailConfigured: mailer !== null,
    localUserId: (email) => identity.findLocalUserId(email),
    keysChanged: deps.keysChanged,
  });
  const publicRoutes: BoundRoutes[] = [
    async (app) => {
      await app.register(async (scope) => {
        // The link's token is a credential: the per-address auth budget keeps guessing slow.
        installRateLimits(scope, {
          rules: [{ name: 'auth', points: config.rateLimit.authPerMinute, durationSeconds: 60 }],
          redis,
          keyPrefix: 'rl:platform-invitations',
          keyOf: (request) => request.ip,
        });
        invitationRoutes(scope as AppInstance, { team, identity, sessions, db, publicUrl: config.publicUrl });
      });
    },
  ];
  return {
    team,
    routes: [(app: AppInstance) => teamRoutes(app, { team, audit })],
    publicRoutes,
    jobs: [invitationEmailJob({ db, secretBox, mailer })],
  };
}
