import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import type { PracticeLinkService } from './practice-links.ts';
import {
  OpenPracticePreview,
  OpenPracticeStart,
  PracticePreview,
  PracticeStarted,
  PracticeTokenParams,
} from './schemas.ts';
import type { AssignmentService } from './service.ts';

const tags = ['Assignments'];
const open = { tags, security: [] as Array<Record<string, string[]>> };

/** The practice links' calls, personal and open: the link's token is the credential (no sign-in). */
export const practiceRoutes: RouteModule<{ assignments: AssignmentService; links: PracticeLinkService }> = (
  app,
  { assignments, links },
) => {
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

  app.get(
    '/v1/try/:token',
    {
      schema: {
        ...open,
        operationId: 'getOpenPractice',
        summary: 'What a scenario’s open practice link offers: the scenario and its persona.',
        params: PracticeTokenParams,
        response: withErrors({ 200: OpenPracticePreview }),
      },
    },
    async (request) => links.preview(request.params.token),
  );

  app.post(
    '/v1/try/:token/meetings',
    {
      schema: {
        ...open,
        operationId: 'startOpenPractice',
        summary:
          'Start practising from an open link: a new meeting for the visitor, who gives a name and optionally an e-mail. Rate limited per address and per link.',
        params: PracticeTokenParams,
        body: OpenPracticeStart,
        response: withErrors({ 201: PracticeStarted }),
      },
    },
    async (request, reply) => reply.status(201).send(await links.start(request.params.token, request.body)),
  );
};
