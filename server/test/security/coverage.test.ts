// Every /v1 route is checked by some resource's security fixture: a route added later without one
// fails here, not in production.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startPlatform, type TestPlatform } from '../harness.ts';
import { appRoutes, normalise } from '../security.ts';
import { PLATFORM_SECURITY_FIXTURES } from '../security-fixtures.ts';

const FIXTURES = PLATFORM_SECURITY_FIXTURES;

/** /v1 routes outside the API-key plane, each with where it is secured instead. */
const OTHER_PLANES: Record<string, string> = {
  // Public: the API description (docs/api-conventions.md).
  'GET /openapi.json': 'public',
  // The participant's room, opened by the meeting's room token, not an API key (docs/realtime.md);
  // meetings/isolation.test.ts checks that tokens and keys do not cross.
  'GET /rooms/{}': 'room token',
  'GET /rooms/{}/transcript': 'room token',
  'GET /rooms/{}/results': 'room token (room/results.test.ts checks a key does not open it)',
  'PUT /rooms/{}/recording': 'room token',
  'PUT /rooms/{}/recording/thumbnail': 'room token',
  'GET /rooms/{}/live': 'room token',
  'GET /rooms/{}/feedback/catalog': 'room token (feedback/feedback.test.ts)',
  'PUT /rooms/{}/feedback': 'room token; the meeting must have ended (feedback/feedback.test.ts)',
  'OPTIONS /rooms/*': 'CORS preflight, no data',
  // The dashboard's sign-in: they hand out the session cookie or read it themselves
  // (dashboard/sessions.test.ts, dashboard/password-reset.test.ts, dashboard/oidc-sign-in.test.ts).
  'POST /auth/sessions': 'public: password sign-in',
  'POST /auth/signup': 'public: sign-up',
  'GET /auth/session': 'session cookie',
  'DELETE /auth/session': 'session cookie and CSRF token',
  'PUT /auth/session':
    'session cookie and CSRF token; only workspaces the user belongs to (team/team.test.ts)',
  'POST /auth/session/token': 'session cookie and CSRF token (mailbox/user-tokens.test.ts)',
  'GET /practice/{}': "public: the practice link's token (assignments/assignments.test.ts)",
  'POST /practice/{}/meetings':
    "public: the practice link's token; attempts counted (assignments/assignments.test.ts)",
  'GET /try/{}': "public: an open practice link's token (assignments/practice-links.test.ts)",
  'POST /try/{}/meetings':
    "public: an open practice link's token; rate limited per address and link (assignments/practice-links.test.ts)",
  'GET /auth/invitations/{}': "public: the invitation link's token (team/team.test.ts)",
  'POST /auth/invitations/{}/accept':
    "the link's token; signed in, the session cookie and CSRF token (team/team.test.ts)",
  'POST /auth/password-resets': 'public: reset link request',
  'POST /auth/password-resets/confirm': 'public: reset token',
  'GET /auth/providers': 'public',
  'GET /auth/oidc/start': 'public: redirect to the identity provider',
  'GET /auth/oidc/callback': 'public: state cookie and PKCE',
};

let t: TestPlatform;
before(async () => {
  t = await startPlatform();
});
after(() => t.close());

test('every /v1 route is covered by a security fixture', () => {
  const covered = new Set([
    ...FIXTURES.flatMap((fixture) => Object.keys(fixture.routes).map(normalise)),
    ...Object.keys(OTHER_PLANES),
  ]);
  const missing = appRoutes(t).filter((route) => !covered.has(route));
  assert.deepEqual(missing, [], 'routes without a security fixture');
});
