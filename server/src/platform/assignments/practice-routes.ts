import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { PracticePreview, PracticeStarted, PracticeTokenParams } from './schemas.ts';
import type { AssignmentService } from './service.ts';

const tags = ['Assignments'];
const open = { tags, security: [] as Array<Record<string, string[]>> };

/** A personal practice link's two calls: its token is the credential (no sign-in). */
export const practiceRoutes: RouteModule<{ assignments: AssignmentService }> = (app, { assignments }) => {
  app.get(
    '/v1/practice/:token',
    {
      schema: {
        ...open,
        operationId: 'getPractice',
        summary:
          'What a practice link offers: the scenario, who it is for, the due date and the attempts left.',
        params: PracticeTokenParams,
        response: withErrors({ 200: PracticePreview }),
      },
    },
    async (request) => assignments.preview(request.params.token),
  );

  app.post(
    '/v1/practice/:token/meetings',
    {
      schema: {
        ...open,
        operationId: 'startPractice',
        summary: 'Start an attempt: a meeting for the person on the scenario (409 when none is left).',
        params: PracticeTokenParams,
        response: withErrors({ 201: PracticeStarted }),
      },
    },
    async (request, reply) => reply.status(201).send(await assignments.start(request.params.token)),
  );
};
