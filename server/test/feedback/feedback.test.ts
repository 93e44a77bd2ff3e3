import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AGENT_ISSUES, VIDEO_ISSUES } from '../../src/platform/feedback/catalog.ts';
import { dumpTables, insertMeeting, insertScenario } from '../fixtures/rows.ts';
import { type ApiClient, startPlatform, type TestPlatform } from '../harness.ts';

let t: TestPlatform;
before(async () => {
  t = await startPlatform();
});
after(() => t.close());

async function meetingOf(c: ApiClient, values: Record<string, unknown> = {}) {
  const scenarioId = await insertScenario(t.deps, c.accountId);
  return insertMeeting(t.deps, c.accountId, scenarioId, values);
}

describe('post-call feedback', () => {
  test('the catalog lists ratings and both checklists with labels', async () => {
    const c = await t.workspace();
    const response = await c.call('GET', '/meetings/feedback/catalog');
    assert.equal(response.statusCode, 200);
    const data = response.json().data;
    assert.deepEqual(
      data.ratings.map((r: { key: string }) => r.key),
      ['good', 'had_issues'],
    );
    const videoKeys = data.video_issues.map((r: { key: string }) => r.key);
    const agentKeys = data.agent_issues.map((r: { key: string }) => r.key);
    for (const key of ['freezes', 'audio_dropouts', 'lip_sync', 'echo', 'low_resolution']) {
      assert.ok(videoKeys.includes(key), key);
    }
    for (const key of ['interrupting', 'slow_replies', 'off_script', 'repetitive', 'unnatural_voice']) {
      assert.ok(agentKeys.includes(key), key);
    }
    for (const entry of [...data.ratings, ...data.video_issues, ...data.agent_issues]) {
      assert.equal(typeof entry.label, 'string');
      assert.ok(entry.label.length > 0);
    }
  });

  test('201 the first time, 200 when replacing; every field round-trips', async () => {
    const c = await t.workspace();
    const meetingId = await meetingOf(c);
    assert.equal((await c.call('GET', `/meetings/${meetingId}/feedback`)).statusCode, 404);

    const first = await c.call('POST', `/meetings/${meetingId}/feedback`, {
      rating: 'had_issues',
      video_issues: ['lip_sync', 'freezes', 'freezes'],
      agent_issues: ['interrupting', 'slow_replies', 'off_script'],
      comment: 'The avatar froze twice.\nOtherwise fine.',
    });
    assert.equal(first.statusCode, 201, first.body);
    const created = first.json().data;
    assert.deepEqual(
      { ...created, created_at: undefined, updated_at: undefined },
      {
        meeting_id: meetingId,
        membership_id: c.membershipId,
        rating: 'had_issues',
        video_issues: ['freezes', 'lip_sync'],
        agent_issues: ['interrupting', 'slow_replies', 'off_script'],
        comment: 'The avatar froze twice.\nOtherwise fine.',
        created_at: undefined,
        updated_at: undefined,
      },
    );
    const got = await c.call('GET', `/meetings/${meetingId}/feedback`);
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json().data, created);

    t.clock.advance(1000);
    const replaced = await c.call('POST', `/meetings/${meetingId}/feedback`, { rating: 'good' });
    assert.equal(replaced.statusCode, 200, replaced.body);
    const r = replaced.json().data;
    assert.equal(r.rating, 'good');
    assert.deepEqual(r.video_issues, []);
    assert.deepEqual(r.agent_issues, []);
    assert.equal(r.comment, null);
    assert.equal(r.created_at, created.created_at);
    assert.notEqual(r.updated_at, created.updated_at);
    assert.deepEqual((await c.call('GET', `/meetings/${meetingId}/feedback`)).json().data, r);
  });

  test('every catalog key is accepted; unknown keys are refused naming the item', async () => {
    const c = await t.workspace();
    const meetingId = await meetingOf(c);
    const all = await c.call('POST', `/meetings/${meetingId}/feedback`, {
      rating: 'had_issues',
      video_issues: VIDEO_ISSUES.map((e) => e.key),
      agent_issues: AGENT_ISSUES.map((e) => e.key),
    });
    assert.equal(all.statusCode, 201, all.body);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ rating: 'good', video_issues: ['freezes', 'smoke'] }, 'video_issues[1]'],
      [{ rating: 'good', agent_issues: ['rude'] }, 'agent_issues[0]'],
      [{ rating: 'excellent' }, 'rating'],
      [{}, 'rating'],
      [{ rating: 'good', comment: 'c'.repeat(2001) }, 'comment'],
      [{ rating: 'good', video_issues: 'freezes' }, 'video_issues'],
      [{ rating: 'good', mood: 'happy' }, 'mood'],
    ];
    for (const [body, param] of cases) {
      const response = await c.call('POST', `/meetings/${meetingId}/feedback`, body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      assert.equal(response.json().error.param, param, JSON.stringify(body));
    }
    const longest = await c.call('POST', `/meetings/${meetingId}/feedback`, {
      rating: 'good',
      comment: 'c'.repeat(2000),
    });
    assert.equal(longest.statusCode, 200);
    assert.equal(longest.json().data.comment.length, 2000);
    const unchanged = (await c.call('GET', `/meetings/${meetingId}/feedback`)).json().data;
    assert.equal(unchanged.comment.length, 2000, 'refused answers left the stored one alone');
  });

  test('the participant answers in the room after the end, with the room token only', async () => {
    const c = await t.workspace();
    const scenarioId = await insertScenario(t.deps, c.accountId);
    const created = await c.call('POST', '/meetings', { scenario_id: scenarioId, person_name: 'Sam' });
    assert.equal(created.statusCode, 201, created.body);
    const { id, room_token: token } = created.json().data;
    const room = (method: 'GET' | 'PUT', path: string, payload?: object, roomToken: string | null = token) =>
      t.app.inject({
        method,
        url: `/v1/rooms/${id}${path}`,
        headers: roomToken ? { 'x-room-token': roomToken } : {},
        ...(payload ? { payload: payload as Record<string, unknown> } : {}),
      });
    const answer = { rating: 'had_issues', agent_issues: ['slow_replies'], comment: 'It paused a lot.' };

    const catalog = await room('GET', '/feedback/catalog');
    assert.equal(catalog.statusCode, 200, catalog.body);
    assert.deepEqual(catalog.json().data, (await c.call('GET', '/meetings/feedback/catalog')).json().data);
    const early = await room('PUT', '/feedback', answer);
    assert.equal(early.statusCode, 409, early.body);
    assert.equal(early.json().error.code, 'resource_conflict');
    assert.equal((await c.call('GET', `/meetings/${id}`)).json().data.feedback_given_at, null);

    assert.equal((await c.call('PUT', `/meetings/${id}/end`)).statusCode, 200);
    assert.ok([401, 403, 404].includes((await room('PUT', '/feedback', answer, null)).statusCode));
    assert.ok(
      [401, 403, 404].includes(
        (await room('PUT', '/feedback', answer, `${token.slice(0, -2)}xx`)).statusCode,
      ),
    );
    const refused = await room('PUT', '/feedback', { rating: 'great' });
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().error.param, 'rating');

    const first = await room('PUT', '/feedback', answer);
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.json().data.membership_id, null, 'no workspace member gave it');
    const again = await room('PUT', '/feedback', { rating: 'good' });
    assert.equal(again.statusCode, 200, again.body);

    // The team reads the participant's latest answer, and the meeting says there is one.
    const read = (await c.call('GET', `/meetings/${id}/feedback`)).json().data;
    assert.equal(read.rating, 'good');
    assert.deepEqual(read.agent_issues, []);
    assert.equal(read.comment, null);
    assert.equal((await c.call('GET', `/meetings/${id}`)).json().data.feedback_given_at, read.updated_at);

    // An answer a team member gave through the API is not replaced from the room.
    assert.equal(
      (await c.call('POST', `/meetings/${id}/feedback`, { rating: 'had_issues' })).statusCode,
      200,
    );
    const over = await room('PUT', '/feedback', { rating: 'good' });
    assert.equal(over.statusCode, 409, over.body);
    assert.equal((await c.call('GET', `/meetings/${id}/feedback`)).json().data.rating, 'had_issues');
  });

  test('another workspace gets 404; an unknown meeting is 404', async () => {
    const owner = await t.workspace();
    const stranger = await t.workspace();
    const meetingId = await meetingOf(owner);
    await owner.call('POST', `/meetings/${meetingId}/feedback`, { rating: 'good', comment: 'private' });
    for (const [method, url, payload] of [
      ['GET', `/meetings/${meetingId}/feedback`, undefined],
      ['POST', `/meetings/${meetingId}/feedback`, { rating: 'had_issues' }],
      ['GET', '/meetings/not-a-uuid/feedback', undefined],
      ['POST', '/meetings/00000000-0000-4000-8000-000000000000/feedback', { rating: 'good' }],
    ] as const) {
      const response = await stranger.call(method, url, payload);
      assert.equal(response.statusCode, 404, `${method} ${url}`);
      assert.equal(response.json().error.param, 'id');
    }
    const kept = (await owner.call('GET', `/meetings/${meetingId}/feedback`)).json().data;
    assert.equal(kept.rating, 'good');
    assert.equal(kept.comment, 'private');
  });

  test('a database dump holds no plain feedback comment', async () => {
    const c = await t.workspace();
    const meetingId = await meetingOf(c);
    const comment = 'PLAIN-FEEDBACK-COMMENT the agent was rude';
    await c.call('POST', `/meetings/${meetingId}/feedback`, { rating: 'had_issues', comment });
    const other = await meetingOf(c);
    await c.call('POST', `/meetings/${other}/feedback`, { rating: 'good', comment });
    await c.call('POST', `/meetings/${other}/feedback`, { rating: 'good', comment: `${comment} again` });
    const dump = await dumpTables(t.deps, ['meeting_feedback', 'meetings', 'idempotency_keys']);
    assert.ok(!dump.includes('PLAIN-FEEDBACK-COMMENT'));
  });
});
