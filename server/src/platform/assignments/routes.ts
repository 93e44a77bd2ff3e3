import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import {
  Assignment,
  AssignmentCreate,
  AssignmentListQuery,
  AssignmentParams,
  AssignmentUpdate,
} from './schemas.ts';
import type { AssignmentService } from './service.ts';

const tags = ['Assignments'];
const one = Type.Object({ status: Type.Literal('success'), data: Assignment });

/** Assigned practice (docs/assignments.md). */
export const assignmentRoutes: RouteModule<{ assignments: AssignmentService }> = (app, { assignments }) => {
  app.get(
    '/assignments',
    {
      schema: {
        tags,
        operationId: 'listAssignments',
        summary:
          'Assignments of the workspace, newest first (the 500 latest), each with every person’s status; `status=overdue` keeps those with someone overdue.',
        querystring: AssignmentListQuery,
        response: withErrors({
          200: Type.Object({ status: Type.Literal('success'), data: Type.Array(Assignment) }),
        }),
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await assignments.list(request.principal, request.query),
    }),
  );

  app.post(
    '/assignments',
    {
      schema: {
        tags,
        operationId: 'createAssignment',
        summary:
          'Assign a scenario to people, with a due date and a number of attempts; each gets a personal practice link.',
        body: AssignmentCreate,
        response: withErrors({ 201: one }),
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send({ status: 'success', data: await assignments.create(request.principal, request.body) }),
  );

  app.get(
    '/assignments/:assignment_id',
    {
      schema: {
        tags,
        operationId: 'getAssignment',
        params: AssignmentParams,
        response: withErrors({ 200: one }),
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await assignments.get(request.principal, request.params.assignment_id),
    }),
  );

  app.patch(
    '/assignments/:assignment_id',
    {
      schema: {
        tags,
        operationId: 'updateAssignment',
        summary: 'Change the due date, the attempts or the note.',
        params: AssignmentParams,
        body: AssignmentUpdate,
        response: withErrors({ 200: one }),
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await assignments.update(request.principal, request.params.assignment_id, request.body),
    }),
  );

  app.delete(
    '/assignments/:assignment_id',
    {
      schema: {
        tags,
        operationId: 'deleteAssignment',
        summary: 'Delete an assignment: its links stop working; the meetings stay.',
        params: AssignmentParams,
        response: withErrors({
          200: Type.Object({ status: Type.Literal('success'), message: Type.String() }),
        }),
      },
    },
    async (request) => {
      await assignments.delete(request.principal, request.params.assignment_id);
      return { status: 'success' as const, message: 'Assignment deleted.' };
    },
  );
};
