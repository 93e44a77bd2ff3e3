import { Type } from 'typebox';
import { requireText } from '../../core/http/errors.ts';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { CommentBody, LearnerReport, MeetingParams } from './schemas.ts';
import type { ReportService } from './service.ts';

const tags = ['Meetings'];
const one = Type.Object({ status: Type.Literal('success'), data: LearnerReport });

/** A meeting's learner report and the coach's comment on it (docs/reports.md). */
export const reportRoutes: RouteModule<{ reports: ReportService }> = (app, { reports }) => {
  app.get(
    '/meetings/:id/report',
    {
      schema: {
        tags,
        operationId: 'getMeetingReport',
        summary:
          'The learner report: each goal’s score with the participant’s sentences it rests on, feedback, strengths, growth areas, what to practise next and the coach’s comment.',
        params: MeetingParams,
        response: withErrors({ 200: one }),
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await reports.get(request.principal, request.params.id),
    }),
  );

  app.put(
    '/meetings/:id/report/comment',
    {
      schema: {
        tags,
        operationId: 'putMeetingReportComment',
        summary:
          'Write the coach’s comment on the meeting (replacing any); the participant sees it with their results when the scenario shares them.',
        params: MeetingParams,
        body: CommentBody,
        response: withErrors({ 200: one }),
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await reports.comment(
        request.principal,
        request.params.id,
        requireText(request.body.text, 'text'),
      ),
    }),
  );

  app.delete(
    '/meetings/:id/report/comment',
    {
      schema: {
        tags,
        operationId: 'deleteMeetingReportComment',
        summary: 'Remove the coach’s comment.',
        params: MeetingParams,
        response: withErrors({ 200: one }),
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await reports.removeComment(request.principal, request.params.id),
    }),
  );
};
