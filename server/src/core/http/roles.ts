// A workspace member's role, and what each role may do (docs/teams.md). A role is a rule over the
// same scopes API keys are restricted to (auth.ts, routeScopes), so every /v1 route is covered by
// the one check in requireAuthentication, including routes added later: a new resource's reads are
// open to every member and its writes to authors and up, unless listed below.

import { Type } from 'typebox';

export const ROLES = ['owner', 'admin', 'author', 'coach', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const RoleSchema = Type.Union(
  [
    Type.Literal('owner'),
    Type.Literal('admin'),
    Type.Literal('author'),
    Type.Literal('coach'),
    Type.Literal('viewer'),
  ],
  { description: 'A member role (docs/teams.md): owner, admin, author, coach or viewer.' },
);

export const isRole = (value: unknown): value is Role =>
  typeof value === 'string' && (ROLES as readonly string[]).includes(value);

/** What each role is for, as the API and the dashboard describe it. */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  owner: 'Everything, including making and removing other owners.',
  admin:
    'Everything but owners: members and invitations, API keys, webhooks, workspace settings, the audit log.',
  author: 'Writes scenarios, personas, goals, guardrails, memories and functions; runs meetings.',
  coach: 'Runs meetings, assigns practice, re-runs analyses and gives feedback; reads scenarios.',
  viewer: 'Reads scenarios, meetings, results and reports; changes nothing.',
};

/** Integration plumbing and team administration: admins and owners only, reading included. */
const ADMIN_RESOURCES = new Set([
  'api_secrets',
  'webhooks',
  'events',
  'mailbox',
  'audit_events',
  'invitations',
]);
/** Written by admins and owners, read by every member. */
const ADMIN_WRITES = new Set(['workspace', 'members']);
/** What a coach may change: the practice, not the scenarios. */
const COACH_WRITES = new Set(['meetings', 'analyses', 'assignments', 'people']);

const resourceOf = (scope: string) => scope.slice(0, scope.indexOf(':'));

/** Whether `role` may perform an operation that needs `scope` (`<resource>:read|write`). */
export function roleGrants(role: Role, scope: string): boolean {
  if (role === 'owner' || role === 'admin') return true;
  const resource = resourceOf(scope);
  if (ADMIN_RESOURCES.has(resource)) return false;
  if (scope.endsWith(':read')) return true;
  if (ADMIN_WRITES.has(resource)) return false;
  if (role === 'author') return true;
  return role === 'coach' && COACH_WRITES.has(resource);
}

/** Owners outrank admins, and so on: an admin may not change an owner, nor make one. */
export const roleRank = (role: Role): number => ROLES.length - ROLES.indexOf(role);
