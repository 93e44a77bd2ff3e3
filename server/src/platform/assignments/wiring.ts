import type { CoreDeps } from '../../core/deps.ts';
import { installRateLimits } from '../../core/http/rate-limit.ts';
import type { AppInstance } from '../../core/http/types.ts';
import type { BoundRoutes } from '../../core/module.ts';
import type { EventEmitter } from '../events/emitter.ts';
import type { MeetingLifecycle } from '../meetings/lifecycle.ts';
import type { MeetingService } from '../meetings/service.ts';
import { practiceRoutes } from './practice-routes.ts';
import { assignmentRoutes } from './routes.ts';
import { AssignmentService } from './service.ts';

/** Assigned practice and its personal links (docs/assignments.md). */
export function createAssignmentsModule(
  deps: Pick<CoreDeps, 'db' | 'clock' | 'config' | 'redis' | 'secretBox'> & {
    events: EventEmitter;
    meetings: MeetingService;
    lifecycle: MeetingLifecycle;
  },
) {
  const { db, clock, config, redis, secretBox, events, meetings } = deps;
  const assignments = new AssignmentService({
    db,
    clock,
    secretBox,
    events,
    meetings,
    publicUrl: config.publicUrl,
  });
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
        practiceRoutes(scope as AppInstance, { assignments });
      });
    },
  ];
  return {
    assignments,
    routes: [(app: AppInstance) => assignmentRoutes(app, { assignments })],
    publicRoutes,
  };
}
