import { Type } from 'typebox';
import { PageQuery } from '../../core/http/pagination.ts';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import type { AuditLog } from './audit.ts';
import {
  AuditEvent,
  Invitation,
  InvitationCreate,
  InvitationParams,
  Member,
  MemberParams,
  MemberUpdate,
} from './schemas.ts';
import type { TeamService } from './service.ts';

const tags = ['Team'];
const one = <T extends Parameters<typeof Type.Object>[0][string]>(item: T) =>
  Type.Object({ status: Type.Literal('success'), data: item });
const many = <T extends Parameters<typeof Type.Object>[0][string]>(item: T) =>
  Type.Object({ status: Type.Literal('success'), data: Type.Array(item) });

/** Members, invitations and the audit log of the caller's workspace (docs/teams.md). */
export const teamRoutes: RouteModule<{ team: TeamService; audit: AuditLog }> = (app, { team, audit }) => {
  app.get(
    '/members',
    {
      schema: {
        tags,
        operationId: 'listMembers',
        summary: 'The members of the workspace with their roles, oldest first.',
        response: withErrors({ 200: many(Member) }),
      },
    },
    async (request) => ({ status: 'success' as const, data: await team.listMembers(request.principal) }),
  );

  app.get(
    '/members/:member_id',
    {
      schema: {
        tags,
        operationId: 'getMember',
        params: MemberParams,
        response: withErrors({ 200: one(Member) }),
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await team.getMember(request.principal, request.params.member_id),
    }),
  );

  app.patch(
    '/members/:member_id',
    {
      schema: {
        tags,
        operationId: 'updateMember',
        summary:
          "Change a member's role (admins: any role but owner; owners: any). The last owner stays an owner.",
        params: MemberParams,
        body: MemberUpdate,
        response: withErrors({ 200: one(Member) }),
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await team.changeRole(request.principal, request.params.member_id, request.body.role),
    }),
  );

  app.delete(
    '/members/me',
    {
      // Any member may leave (the route asks only what every role has), themselves: not an API
      // key, which would otherwise let a read-only key remove its creator (and its sibling keys).
      config: { scopes: ['members:read'], userTokenOnly: true },
      schema: {
        tags,
        operationId: 'leaveWorkspace',
        summary:
          'Leave the workspace (any role; not its last owner; user credentials only). Your sessions here end and your API keys stop working.',
        response: withErrors({
          200: Type.Object({ status: Type.Literal('success'), message: Type.String() }),
        }),
      },
    },
    async (request) => {
      await team.removeMember(request.principal, request.principal.membershipId);
      return { status: 'success' as const, message: 'You left the workspace.' };
    },
  );

  app.delete(
    '/members/:member_id',
    {
      schema: {
        tags,
        operationId: 'removeMember',
        summary:
          'Remove a member: their sessions end and the API keys they created stop working; what they authored stays.',
        params: MemberParams,
        response: withErrors({
          200: Type.Object({ status: Type.Literal('success'), message: Type.String() }),
        }),
      },
    },
    async (request) => {
      await team.removeMember(request.principal, request.params.member_id);
      return { status: 'success' as const, message: 'Member removed.' };
    },
  );

  app.get(
    '/invitations',
    {
      schema: {
        tags,
        operationId: 'listInvitations',
        summary: 'Invitations of the workspace, newest first (the 500 latest), with their status.',
        response: withErrors({ 200: many(Invitation) }),
      },
    },
    async (request) => ({ status: 'success' as const, data: await team.listInvitations(request.principal) }),
  );

  app.post(
    '/invitations',
    {
      schema: {
        tags,
        operationId: 'createInvitation',
        summary:
          'Invite an address with a role. The response carries the link (once); with SMTP_URL set it is e-mailed too. Replaces an open invitation to the same address.',
        body: InvitationCreate,
        response: withErrors({ 201: one(Invitation) }),
      },
    },
    async (request, reply) =>
      reply.status(201).send({ status: 'success', data: await team.invite(request.principal, request.body) }),
  );

  app.delete(
    '/invitations/:invitation_id',
    {
      schema: {
        tags,
        operationId: 'revokeInvitation',
        summary: 'Revoke a pending invitation: its link stops working.',
        params: InvitationParams,
        response: withErrors({ 200: one(Invitation) }),
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await team.revokeInvitation(request.principal, request.params.invitation_id),
    }),
  );

  app.get(
    '/audit-events',
    {
      schema: {
        tags,
        operationId: 'listAuditEvents',
        summary:
          'Who changed members, invitations and API keys, newest first (admins and owners). Send `limit` or `cursor` to page.',
        querystring: PageQuery,
        response: withErrors({
          200: Type.Object({
            status: Type.Literal('success'),
            data: Type.Array(AuditEvent),
            object: Type.Optional(Type.Literal('list')),
            has_more: Type.Optional(Type.Boolean()),
            next_cursor: Type.Optional(Type.Union([Type.String(), Type.Null()])),
          }),
        }),
      },
    },
    async (request) => {
      const result = await audit.list(request.principal, request.query);
      return Array.isArray(result)
        ? { status: 'success' as const, data: result }
        : { status: 'success' as const, ...result };
    },
  );
};
