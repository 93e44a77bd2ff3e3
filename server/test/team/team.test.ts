// A workspace is a team (docs/teams.md): invitations accepted by signing up or signed in, roles
// enforced on /v1, the last owner kept, removed members locked out (tokens and keys), keys acting
// with their creator's current role, and an audit log only admins read.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { JobRunner } from '../../src/core/jobs/index.ts';
import { silentLogger } from '../analyses/helpers.ts';
import {
  type ApiClient,
  bearer,
  expectError,
  ok,
  startPlatform,
  type TestPlatform,
  type Workspace,
} from '../harness.ts';
import { startRelay } from '../smtp-relay.ts';

const PASSWORD = 'correct horse battery';
const PERSONA = { name: 'Dana Whitfield', job_title: 'CFO' };

describe('team: members, roles and invitations', () => {
  let t: TestPlatform;
  let owner: ApiClient;
  const as = (who: Workspace, method: string, url: string, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url: `/v1${url}`,
      headers: bearer(who.token),
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const invite = async (email: string, role: string, by: Workspace = owner) =>
    ok(await as(by, 'POST', '/invitations', { email, role }), 201).data;
  const tokenOf = (invitation: { url: string }) => invitation.url.split('/').pop()!;

  before(async () => {
    t = await startPlatform();
    owner = await t.workspace();
  });
  after(() => t.close());

  it('invites by link, shows what the link offers, and the new member signs up into the workspace once', async () => {
    const invitation = await invite('Sam@Example.com', 'coach');
    assert.equal(invitation.email, 'sam@example.com');
    assert.equal(invitation.status, 'pending');
    assert.equal(invitation.emailed, false, 'no SMTP_URL: the link is for the inviter to share');
    assert.match(invitation.url, /\/#\/invitations\/[\w-]{40,}$/);
    const token = tokenOf(invitation);

    const preview = ok(await t.app.inject({ method: 'GET', url: `/v1/auth/invitations/${token}` }));
    assert.equal(preview.role, 'coach');
    assert.equal(preview.email, 'sam@example.com');
    assert.equal(preview.status, 'pending');
    assert.match(preview.workspace.name, /workspace/);

    const missing = await t.app.inject({
      method: 'POST',
      url: `/v1/auth/invitations/${token}/accept`,
      payload: {},
    });
    expectError(missing, 400, 'name');
    const accepted = await t.app.inject({
      method: 'POST',
      url: `/v1/auth/invitations/${token}/accept`,
      payload: { name: 'Sam Rivera', password: PASSWORD },
    });
    const session = ok(accepted, 201);
    assert.equal(session.role, 'coach');
    assert.equal(session.account.id, owner.accountId);
    assert.match(String(accepted.headers['set-cookie']), /HttpOnly/);

    const again = await t.app.inject({
      method: 'POST',
      url: `/v1/auth/invitations/${token}/accept`,
      payload: { name: 'Someone else', password: PASSWORD },
    });
    assert.equal(again.statusCode, 409, again.body);

    const members = ok(await owner.call('GET', '/members')).data;
    const sam = members.find((member: { email: string }) => member.email === 'sam@example.com');
    assert.equal(sam.role, 'coach');
    assert.equal(sam.name, 'Sam Rivera');
    assert.equal(members.find((member: { is_you: boolean }) => member.is_you).role, 'owner');
    const listed = ok(await owner.call('GET', '/invitations')).data;
    assert.equal(listed.find((row: { id: string }) => row.id === invitation.id).status, 'accepted');
    assert.equal(listed[0].url, undefined, 'the link is shown once');
  });

  it('someone removed from every workspace joins again with their password, signed out', async () => {
    const invitation = await invite('rio@example.com', 'viewer');
    assert.equal(
      ok(await t.app.inject({ method: 'GET', url: `/v1/auth/invitations/${tokenOf(invitation)}` }))
        .has_account,
      false,
    );
    ok(
      await t.app.inject({
        method: 'POST',
        url: `/v1/auth/invitations/${tokenOf(invitation)}/accept`,
        payload: { name: 'Rio Tan', password: PASSWORD },
      }),
      201,
    );
    const rio = ok(await owner.call('GET', '/members')).data.find(
      (member: { email: string }) => member.email === 'rio@example.com',
    );
    ok(await owner.call('DELETE', `/members/${rio.id}`));
    const login = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/sessions',
      payload: { email: 'rio@example.com', password: PASSWORD },
    });
    assert.equal(login.statusCode, 401, 'no workspace left to sign in to');

    const again = await invite('rio@example.com', 'author');
    const token = tokenOf(again);
    assert.equal(
      ok(await t.app.inject({ method: 'GET', url: `/v1/auth/invitations/${token}` })).has_account,
      true,
    );
    const accept = (payload: object) =>
      t.app.inject({ method: 'POST', url: `/v1/auth/invitations/${token}/accept`, payload });
    expectError(await accept({}), 400, 'password');
    const wrong = await accept({ password: 'not the password' });
    assert.equal(wrong.statusCode, 401, wrong.body);
    assert.equal(wrong.json().error.code, 'invalid_credentials');
    const joined = ok(await accept({ password: PASSWORD }), 201);
    assert.equal(joined.role, 'author');
    assert.equal(joined.account.id, owner.accountId);
    assert.equal(joined.user.name, 'Rio Tan', 'the same account, not a new one');
  });

  it('enforces each role on /v1: a viewer reads, a coach runs meetings, an author writes scenarios, admins run integrations', async () => {
    const viewer = await t.member(owner, 'viewer');
    const coach = await t.member(owner, 'coach');
    const author = await t.member(owner, 'author');
    const admin = await t.member(owner, 'admin');

    ok(await as(viewer, 'GET', '/scenarios'));
    const refused = expectError(await as(viewer, 'POST', '/personas', PERSONA), 403, 'role');
    assert.equal(refused.error.code, 'insufficient_role');
    assert.match(refused.error.message, /viewer/);

    expectError(await as(coach, 'POST', '/personas', PERSONA), 403, 'role');
    ok(await as(author, 'POST', '/personas', PERSONA), 201);
    const scenario = ok(await as(viewer, 'GET', '/scenarios')).data[0];
    const meeting = await as(coach, 'POST', '/meetings', { scenario_id: scenario.id });
    assert.ok([200, 201].includes(meeting.statusCode), meeting.body);
    expectError(await as(viewer, 'POST', '/meetings', { scenario_id: scenario.id }), 403, 'role');

    for (const who of [viewer, coach, author]) {
      expectError(await as(who, 'GET', '/webhooks/endpoints'), 403, 'role');
      expectError(await as(who, 'POST', '/api-secrets', { name: 'mine' }), 403, 'role');
      expectError(
        await as(who, 'POST', '/invitations', { email: 'x@example.com', role: 'viewer' }),
        403,
        'role',
      );
      expectError(await as(who, 'GET', '/audit-events'), 403, 'role');
      ok(await as(who, 'GET', '/members'));
    }
    ok(await as(admin, 'GET', '/webhooks/endpoints'));
    ok(await as(admin, 'POST', '/api-secrets', { name: 'admin key' }), 201);
  });

  it('admins manage members but not owners; the last owner stays; a removed member is locked out', async () => {
    const admin = await t.member(owner, 'admin');
    const other = await t.member(owner, 'author');
    expectError(await as(admin, 'PATCH', `/members/${owner.membershipId}`, { role: 'viewer' }), 403, 'role');
    expectError(await as(admin, 'PATCH', `/members/${other.membershipId}`, { role: 'owner' }), 403, 'role');
    expectError(
      await as(admin, 'POST', '/invitations', { email: 'boss@example.com', role: 'owner' }),
      403,
      'role',
    );
    const changed = ok(await as(admin, 'PATCH', `/members/${other.membershipId}`, { role: 'viewer' })).data;
    assert.equal(changed.role, 'viewer');
    expectError(await as(other, 'POST', '/personas', PERSONA), 403, 'role');

    // The only owner can neither step down nor leave.
    const stepDown = await as(owner, 'PATCH', `/members/${owner.membershipId}`, { role: 'admin' });
    assert.equal(stepDown.statusCode, 409, stepDown.body);
    assert.equal((await as(owner, 'DELETE', '/members/me')).statusCode, 409);
    expectError(await as(owner, 'PATCH', '/members/not-a-member', { role: 'viewer' }), 404, 'member_id');
    expectError(await as(owner, 'PATCH', `/members/${other.membershipId}`, { role: 'boss' }), 400, 'role');

    ok(await as(admin, 'DELETE', `/members/${other.membershipId}`));
    const locked = await as(other, 'GET', '/scenarios');
    assert.equal(locked.statusCode, 401, 'a removed member’s token stops working');
    const members = ok(await owner.call('GET', '/members')).data;
    assert.ok(!members.some((member: { id: string }) => member.id === other.membershipId));
  });

  it('any member may leave; their API keys stop working and keys act with their creator’s current role', async () => {
    const admin = await t.member(owner, 'admin');
    const key = ok(await as(admin, 'POST', '/api-secrets', { name: 'integration' }), 201).data;
    assert.equal(key.created_by.member_id, admin.membershipId);
    assert.match(key.created_by.name, /Member/);
    const withKey = (method: string, url: string, payload?: unknown) =>
      t.app.inject({
        method: method as 'POST',
        url: `/v1${url}`,
        headers: bearer(key.secret),
        payload: payload as object,
      });
    ok(await withKey('POST', '/personas', PERSONA), 201);

    ok(await as(owner, 'PATCH', `/members/${admin.membershipId}`, { role: 'viewer' }));
    const demoted = expectError(await withKey('POST', '/personas', PERSONA), 403, 'role');
    assert.match(demoted.error.message, /key's creator is a viewer/);
    ok(await withKey('GET', '/scenarios'));

    ok(await as(admin, 'DELETE', '/members/me'));
    assert.equal((await withKey('GET', '/scenarios')).statusCode, 401, 'the leaver’s key stopped working');
  });

  it('a signed-in user accepts into a second workspace and switches between them', async () => {
    const other = await t.workspace();
    const invitation = await invite(other.email, 'author');
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/sessions',
      payload: { email: other.email, password: PASSWORD },
    });
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
    const csrf = ok(signIn, 201).csrf_token;
    const noCsrf = await t.app.inject({
      method: 'POST',
      url: `/v1/auth/invitations/${tokenOf(invitation)}/accept`,
      headers: { cookie },
      payload: {},
    });
    assert.equal(
      noCsrf.statusCode,
      403,
      'a signed-in acceptance is a session write: it needs the CSRF token',
    );
    const accepted = await t.app.inject({
      method: 'POST',
      url: `/v1/auth/invitations/${tokenOf(invitation)}/accept`,
      headers: { cookie, 'x-csrf-token': csrf },
    });
    const joined = ok(accepted, 201);
    assert.equal(joined.account.id, owner.accountId);
    assert.equal(joined.role, 'author');
    const newCookie = String(accepted.headers['set-cookie']).split(';')[0]!;
    const session = ok(
      await t.app.inject({ method: 'GET', url: '/v1/auth/session', headers: { cookie: newCookie } }),
    );
    assert.deepEqual(
      session.workspaces.map((w: { id: string }) => w.id).sort(),
      [owner.accountId, other.accountId].sort(),
    );
    const switched = ok(
      await t.app.inject({
        method: 'PUT',
        url: '/v1/auth/session',
        headers: { cookie: newCookie, 'x-csrf-token': session.csrf_token },
        payload: { account_id: other.accountId },
      }),
    );
    assert.equal(switched.account.id, other.accountId);
    assert.equal(switched.role, 'owner');
    const stranger = await t.workspace();
    const refused = await t.app.inject({
      method: 'PUT',
      url: '/v1/auth/session',
      headers: { cookie: newCookie, 'x-csrf-token': session.csrf_token },
      payload: { account_id: stranger.accountId },
    });
    expectError(refused, 404, 'account_id');
  });

  it('revokes invitations, refuses duplicates, and the audit log tells admins who did what', async () => {
    const invitation = await invite('lee@example.com', 'viewer');
    const replaced = await invite('lee@example.com', 'author');
    const list = ok(await owner.call('GET', '/invitations')).data;
    assert.equal(
      list.find((row: { id: string }) => row.id === invitation.id).status,
      'revoked',
      'a new invitation replaces the open one',
    );
    ok(await owner.call('DELETE', `/invitations/${replaced.id}`));
    const gone = await t.app.inject({
      method: 'POST',
      url: `/v1/auth/invitations/${tokenOf(replaced)}/accept`,
      payload: { name: 'Lee', password: PASSWORD },
    });
    assert.equal(gone.statusCode, 409, gone.body);
    assert.equal((await owner.call('DELETE', `/invitations/${replaced.id}`)).statusCode, 409);
    expectError(await owner.call('DELETE', '/invitations/nope'), 404, 'invitation_id');
    expectError(await t.app.inject({ method: 'GET', url: '/v1/auth/invitations/not-a-token' }), 404, 'token');
    expectError(
      await as(owner, 'POST', '/invitations', { email: owner.email, role: 'viewer' }),
      409,
      'email',
    );

    const events = ok(await owner.call('GET', '/audit-events')).data as Array<{
      action: string;
      target: string;
      actor: { name: string };
    }>;
    const actions = new Set(events.map((event) => event.action));
    for (const action of [
      'member.invited',
      'member.joined',
      'member.role_changed',
      'member.removed',
      'member.left',
      'invitation.revoked',
      'api_key.created',
    ]) {
      assert.ok(actions.has(action), `${action} in the audit log`);
    }
    const revoked = events.find(
      (event) => event.action === 'invitation.revoked' && event.target === 'lee@example.com',
    );
    assert.ok(revoked, 'the revocation names the address');
    const page = ok(await owner.call('GET', '/audit-events?limit=2'));
    assert.equal(page.data.length, 2);
    assert.equal(page.has_more, true);
    // Another workspace's log is its own.
    const stranger = await t.workspace();
    const theirs = ok(await stranger.call('GET', '/audit-events')).data;
    assert.ok(theirs.every((event: { target: string }) => event.target !== 'lee@example.com'));
  });
});

describe('team: invitations e-mailed through SMTP_URL', () => {
  let t: TestPlatform;
  let relay: Awaited<ReturnType<typeof startRelay>>;

  before(async () => {
    relay = await startRelay();
    t = await startPlatform({ env: { SMTP_URL: `smtp://127.0.0.1:${relay.port}?from=team@example.com` } });
  });
  after(async () => {
    await t.close();
    await relay.close();
  });

  it('sends the link to the invited address, and the link in the mail is the one that works', async () => {
    const owner = await t.workspace();
    const created = ok(
      await owner.call('POST', '/invitations', { email: 'ana@example.com', role: 'author' }),
      201,
    ).data;
    assert.equal(created.emailed, true);
    const runner = new JobRunner({
      database: t.deps.database,
      clock: t.clock,
      catalog: t.deps.jobCatalog,
      logger: silentLogger,
    });
    await runner.drain();
    assert.equal(relay.received.length, 1);
    assert.deepEqual(relay.received[0]!.to, ['ana@example.com']);
    assert.match(relay.received[0]!.subject, /invited you to .*workspace/);
    assert.match(relay.received[0]!.text, /as an author/);
    assert.ok(relay.received[0]!.text.includes(created.url), 'the mail carries the link');
    const jobs = await t.deps.db
      .selectFrom('jobs')
      .select('payload')
      .where('name', '=', 'team.invitation_email')
      .execute();
    assert.ok(
      jobs.every((job) => !JSON.stringify(job.payload).includes(created.url.split('/').pop())),
      'the link is sealed at rest',
    );
  });
});
