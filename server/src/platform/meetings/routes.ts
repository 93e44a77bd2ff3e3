import { DataList, Deleted, withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import type { ScenarioService } from '../scenarios/service.ts';
import {
  CreatedMeeting,
  CreateMeetingBody,
  EndedMeeting,
  MeetingEnvelope,
  MeetingIdParams,
  MeetingListQuery,
  MeetingSummary,
} from './schemas.ts';
import type { MeetingService } from './service.ts';

const tags = ['Meetings'];

export const meetingRoutes: RouteModule<{
  meetings: { service: MeetingService };
  scenarios: Pick<ScenarioService, 'render'>;
}> = (app, { meetings, scenarios }) => {
  app.post(
    '/meetings',
    {
      schema: {
        tags,
        operationId: 'createMeeting',
        summary:
          'Create a meeting from a scenario. Returns the room URL and its room token (shown once); fires meeting.created.',
        body: CreateMeetingBody,
        response: withErrors({ 201: CreatedMeeting }),
      },
    },
    async (request, reply) => {
      const data = await meetings.service.create(request.principal, request.body);
      return reply.status(201).send({ success: true as const, data });
    },
  );

  app.get(
    '/meetings',
    {
      schema: {
        tags,
        operationId: 'listMeetings',
        summary:
          'The workspace’s meetings, newest first, as `{ data }` (with `object`, `has_more`, `next_cursor` when `limit` or `cursor` is sent). Filters: `scenario_id`, `status`, `person_name` (prefix, any case), `created_after`, `created_before`, `q` (participant or scenario name contains, any case).',
        querystring: MeetingListQuery,
        response: withErrors({ 200: DataList(MeetingSummary) }),
      },
    },
    async (request) => meetings.service.list(request.principal, request.query),
  );

  app.get(
    '/meetings/:id',
    {
      schema: {
        tags,
        operationId: 'getMeeting',
        summary:
          'A meeting with its scenario (Persona, Goals), participants, sentenced transcript, and the analysis once completed.',
        params: MeetingIdParams,
        response: withErrors({ 200: MeetingEnvelope }),
      },
    },
    async (request) => ({
      success: true as const,
      data: await meetings.service.get(request.principal, request.params.id, scenarios),
    }),
  );

  app.put(
    '/meetings/:id/end',
    {
      schema: {
        tags,
        operationId: 'endMeeting',
        summary:
          'End a meeting now (reason ended_by_api). The room is told and closed. Ending an ended meeting changes nothing and answers 200 with already_ended true.',
        params: MeetingIdParams,
        response: withErrors({ 200: EndedMeeting }),
      },
    },
    async (request) => ({
      success: true as const,
      data: await meetings.service.end(request.principal, request.params.id),
    }),
  );

  app.delete(
    '/meetings/:id',
    {
      schema: {
        tags,
        operationId: 'deleteMeeting',
        summary:
          'Delete a meeting with its transcript, recording (stored files too), analysis, goal results and feedback; fires meeting.deleted. A running meeting answers 409 meeting_active: end it first. Webhooks already sent stay in the delivery log.',
        params: MeetingIdParams,
        response: withErrors({ 200: Deleted('meeting') }),
      },
    },
    async (request) => meetings.service.delete(request.principal, request.params.id),
  );
};
