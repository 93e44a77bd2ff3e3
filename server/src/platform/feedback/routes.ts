import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { Feedback, FeedbackCatalog, MeetingIdParams, SubmitFeedbackBody } from './schemas.ts';
import type { FeedbackService } from './service.ts';

const tags = ['Meetings'];
const FeedbackEnvelope = Type.Object({ data: Feedback });

export const feedbackRoutes: RouteModule<{ feedback: FeedbackService }> = (app, { feedback }) => {
  app.get(
    '/meetings/feedback/catalog',
    {
      schema: {
        tags,
        operationId: 'getFeedbackCatalog',
        summary: 'The accepted ratings and checklist keys of post-call feedback, with display labels.',
        response: withErrors({ 200: Type.Object({ data: FeedbackCatalog }) }),
      },
    },
    async () => ({ data: feedback.catalog() }),
  );

  app.post(
    '/meetings/:id/feedback',
    {
      schema: {
        tags,
        operationId: 'submitMeetingFeedback',
        summary:
          'Give post-call feedback: 201 the first time, 200 when it replaces the earlier answer (omitted fields are cleared).',
        params: MeetingIdParams,
        body: SubmitFeedbackBody,
        response: withErrors({ 200: FeedbackEnvelope, 201: FeedbackEnvelope }),
      },
    },
    async (request, reply) => {
      const result = await feedback.submit(request.principal, request.params.id, request.body);
      return reply.status(result.created ? 201 : 200).send({ data: result.feedback });
    },
  );

  app.get(
    '/meetings/:id/feedback',
    {
      schema: {
        tags,
        operationId: 'getMeetingFeedback',
        summary: "Read a meeting's feedback. 404 when none has been given.",
        params: MeetingIdParams,
        response: withErrors({ 200: FeedbackEnvelope }),
      },
    },
    async (request) => ({ data: await feedback.get(request.principal, request.params.id) }),
  );
};
