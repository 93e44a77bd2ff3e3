import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import {
  Analysis,
  AnalysisIdParams,
  AnalysisList,
  AnalysisListQuery,
  MeetingIdParams,
  ScenarioIdParams,
  TriggerResponse,
} from './schemas.ts';
import type { AnalysisService } from './service.ts';

const tags = ['Analyses'];

export const analysisRoutes: RouteModule<{ analyses: AnalysisService }> = (app, { analyses }) => {
  app.get(
    '/analyses',
    {
      schema: {
        tags,
        operationId: 'listAnalyses',
        summary:
          'All analyses of the workspace, newest first: an array, or a page envelope when `limit` or `cursor` is sent.',
        querystring: AnalysisListQuery,
        response: withErrors({ 200: AnalysisList }),
      },
    },
    async (request) => analyses.list(request.principal, request.query),
  );

  app.get(
    '/analyses/meeting/:meetingId',
    {
      schema: {
        tags,
        operationId: 'getMeetingAnalysis',
        summary: 'The analysis of a meeting; 404 until its first analysis has completed.',
        params: MeetingIdParams,
        response: withErrors({ 200: Analysis }),
      },
    },
    async (request) => analyses.forMeeting(request.principal, request.params.meetingId),
  );

  app.get(
    '/analyses/scenario/:scenarioId',
    {
      schema: {
        tags,
        operationId: 'listScenarioAnalyses',
        summary:
          'Analyses of a scenario’s meetings, newest first, each with its `Meeting` (id, person_name, created_at) and `GoalResults`.',
        params: ScenarioIdParams,
        querystring: AnalysisListQuery,
        response: withErrors({ 200: AnalysisList }),
      },
    },
    async (request) => analyses.forScenario(request.principal, request.params.scenarioId, request.query),
  );

  app.get(
    '/analyses/:id',
    {
      schema: {
        tags,
        operationId: 'getAnalysis',
        summary: 'One analysis.',
        params: AnalysisIdParams,
        response: withErrors({ 200: Analysis }),
      },
    },
    async (request) => analyses.get(request.principal, request.params.id),
  );

  app.post(
    '/analyses/trigger/:meetingId',
    {
      schema: {
        tags,
        operationId: 'triggerAnalysis',
        summary:
          'Run the analysis of an ended meeting again (202). The new result replaces the old one (same analysis id). 409 `resource_conflict` while a run is queued or running, or before the meeting has ended and its transcript is complete.',
        params: MeetingIdParams,
        response: withErrors({ 202: TriggerResponse }),
      },
    },
    async (request, reply) =>
      reply.status(202).send(await analyses.trigger(request.principal, request.params.meetingId)),
  );
};
