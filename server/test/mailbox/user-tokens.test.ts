// A signed-in member reaches the mailbox with a user token (the dashboard's mailbox view asks the
// platform for one: POST /v1/auth/session/token), as far as their role allows: the mailbox is admin
// work (docs/teams.md), so an admin or owner reads and writes their workspace's inboxes and any
// other role is refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ok } from '../harness.ts';
import { startMailbox, type TestMailbox } from './app.ts';

describe('mailbox: platform user tokens', () => {
  let m: TestMailbox;
  before(async () => {
    m = await startMailbox();
  });
  after(() => m.close());

  it('an owner’s token reaches their workspace’s inboxes, the same ones as their API key', async () => {
    const owner = await m.platform.workspace();
    const created = await m.request('POST', '/v0/inboxes', owner.token, { display_name: 'Support desk' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const viaKey = await m.request('GET', '/v0/inboxes', owner.key);
    assert.ok(
      viaKey.body.inboxes.some((inbox: { inbox_id: string }) => inbox.inbox_id === created.body.inbox_id),
    );
    const stranger = await m.platform.workspace();
    const theirs = await m.request('GET', '/v0/inboxes', stranger.token);
    assert.ok(
      !theirs.body.inboxes.some((inbox: { inbox_id: string }) => inbox.inbox_id === created.body.inbox_id),
    );
  });

  it('a member of another role is refused, and a removed member’s token names nobody', async () => {
    const owner = await m.platform.workspace();
    const author = await m.platform.member(owner, 'author');
    const refused = await m.request('GET', '/v0/inboxes', author.token);
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    const admin = await m.platform.member(owner, 'admin');
    assert.equal((await m.request('GET', '/v0/inboxes', admin.token)).status, 200);
    ok(
      await m.platform.app.inject({
        method: 'DELETE',
        url: `/v1/members/${admin.membershipId}`,
        headers: { authorization: `Bearer ${owner.token}` },
      }),
    );
    assert.equal((await m.request('GET', '/v0/inboxes', admin.token)).status, 401);
    assert.equal((await m.request('GET', '/v0/inboxes', 'not.a.token')).status, 401);
  });

  it('the dashboard session hands out a user token, with the CSRF token only', async () => {
    const owner = await m.platform.workspace();
    const signIn = await m.platform.app.inject({
      method: 'POST',
      url: '/v1/auth/sessions',
      payload: { email: owner.email, password: 'correct horse battery' },
    });
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
    const { csrf_token } = ok(signIn, 201);
    const refused = await m.platform.app.inject({
      method: 'POST',
      url: '/v1/auth/session/token',
      headers: { cookie },
    });
    assert.equal(refused.statusCode, 403);
    const minted = ok(
      await m.platform.app.inject({
        method: 'POST',
        url: '/v1/auth/session/token',
        headers: { cookie, 'x-csrf-token': csrf_token },
      }),
      201,
    );
    assert.equal(minted.expires_in, 12 * 60 * 60);
    // Its one use is the mailbox, admin work: an author's session gets none.
    const author = await m.platform.member(owner, 'author');
    const authorSignIn = await m.platform.app.inject({
      method: 'POST',
      url: '/v1/auth/sessions',
      payload: { email: author.email, password: 'correct horse battery' },
    });
    const authorCookie = String(authorSignIn.headers['set-cookie']).split(';')[0]!;
    const denied = await m.platform.app.inject({
      method: 'POST',
      url: '/v1/auth/session/token',
      headers: { cookie: authorCookie, 'x-csrf-token': ok(authorSignIn, 201).csrf_token },
    });
    assert.equal(denied.statusCode, 403);
    assert.equal(denied.json().error.code, 'insufficient_role');
    assert.equal((await m.request('GET', '/v0/inboxes', minted.token)).status, 200);
  });
});
