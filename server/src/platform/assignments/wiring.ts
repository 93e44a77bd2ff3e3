import type { FastifyRequest } from 'fastify';
import type { CoreDeps } from '../../core/deps.ts';
import { installRateLimits } from '../../core/http/rate-limit.ts';
import type { AppInstance } from '../../core/http/types.ts';
import type { JobQueue } from '../../core/jobs/index.ts';
import type { BoundRoutes } from '../../core/module.ts';
import { configuredMailer } from '../analyses/notifications.ts';
import type { EventEmitter } from '../events/emitter.ts';
import type { MeetingLifecycle } from '../meetings/lifecycle.ts';
import type { MeetingService } from '../meetings/service.ts';
import { tokenHash } from '../sessions/cookies.ts';
import { practiceLinkRoutes } from './link-routes.ts';
import { practiceEmailJob } from './practice-email.ts';
import { PracticeLinkService } from './practice-links.ts';
import { practiceRoutes } from './practice-routes.ts';
import { assignmentRoutes } from './routes.ts';
import { AssignmentService } from './service.ts';

/** Assigned practice and its personal links (docs/assignments.md). */
export function createAssignmentsModule(
  deps: Pick<CoreDeps, 'db' | 'clock' | 'config' | 'redis' | 'secretBox' | 'disposers'> & {
    events: EventEmitter;
    meetings: MeetingService;
    lifecycle: MeetingLifecycle;
    jobs: JobQueue;
  },
) {
  const { db, clock, config, redis, secretBox, events, meetings, jobs } = deps;
  const mailer = configuredMailer(config, deps.disposers);
  const assignments = new AssignmentService({
    db,
    clock,
    secretBox,
    events,
    meetings,
    jobs,
    mailConfigured: mailer !== null,
    publicUrl: config.publicUrl,
  });
  const links = new PracticeLinkService({ db, clock, secretBox, meetings, publicUrl: config.publicUrl });
  deps.lifecycle.afterEnded((tx, meeting) => assignments.completeWith(tx, meeting));
  const publicRoutes: BoundRoutes[] = [
    async (app) => {
      await app.register(async (scope) => {
        // The link's token is a credential, and each start makes a meeting: the per-address budget.
        installRateLimits(scope, {
          rules: [{ name: 'auth', points: config.rateLimit.authPerMinute, durationSeconds: 60 }],
          redis,
          keyPrefix: 'rl:platform-practice',
          keyOf: (request) => request.ip,
        });
        // Each visit of an open link makes a meeting: budgets per address and per link.
        const starts = {
          name: 'starts',
          points: config.rateLimit.openPracticePerHour,
          durationSeconds: 3600,
          writesOnly: true,
        };
        const opensMeetings = (request: FastifyRequest) =>
          request.routeOptions.url === '/v1/try/:token/meetings';
        installRateLimits(scope, {
          rules: [starts],
          redis,
          keyPrefix: 'rl:platform-open-practice',
          keyOf: (request) => request.ip,
          appliesTo: opensMeetings,
        });
        installRateLimits(scope, {
          rules: [{ ...starts, points: starts.points * 10 }],
          redis,
          keyPrefix: 'rl:platform-open-practice-link',
          keyOf: (request) => tokenHash((request.params as { token?: string }).token ?? ''),
          appliesTo: opensMeetings,
        });
        practiceRoutes(scope as AppInstance, { assignments, links });
      });
    },
  ];
  return {
    assignments,
    routes: [
      (app: AppInstance) => assignmentRoutes(app, { assignments }),
      (app: AppInstance) => practiceLinkRoutes(app, { links }),
    ],
    publicRoutes,
    jobs: [
      practiceEmailJob({
        db,
        clock,
        secretBox,
        mailer,
        practiceUrl: (token) => assignments.practiceUrl(token),
      }),
    ],
  };
}
