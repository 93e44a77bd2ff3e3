// Every meetings, transcripts, recordings and usage route answers 404 for another workspace's ids;
// the room API answers 404 for a wrong token or another meeting's token; request validation names
// the failing parameter.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPlatformJobRunner } from '../../src/app/jobs.ts';
import { type ApiClient, type ListeningPlatform, ok } from '../harness.ts';
import {
  createMeeting,
  createScenario,
  Participant,
  startLivePlatform,
  uploadRecording,
} from '../live/helpers.ts';

let t: ListeningPlatform;
let owner: ApiClient;
let stranger: ApiClient;
let meeting: Awaited<ReturnType<typeof createMeeting>>;
let scenarioId: string;
let transcriptId: number;

before(async () => {
  t = await startLivePlatform();
  owner = await t.workspace();
  stranger = await t.workspace();
  const { scenario } = await createScenario(owner);
  scenarioId = scenario.id;
  meeting = await createMeeting(owner, scenarioId);
  const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
  await p.join();
  await p.next('agent.message');
  await p.say('Hello there.');
  p.send({ type: 'leave' });
  await p.next('ended');
  await uploadRecording(t, meeting.id, meeting.room_token);
  await createPlatformJobRunner(t.deps).drain();
  transcriptId = ok(await owner.call('GET', `/transcripts/meeting/${meeting.id}`), 200)[0].id;
});
after(() => t.close());

describe('tenant isolation', () => {
  const routes = () => [
    ['GET', `/meetings/${meeting.id}`],
    ['PUT', `/meetings/${meeting.id}/end`],
    ['GET', `/transcripts/meeting/${meeting.id}`],
    ['GET', `/sentenced-transcripts/scenario/${scenarioId}`],
    ['GET', `/sentenced-transcripts/${transcriptId}/${meeting.id}/${scenarioId}`],
    ['GET', `/recordings/url-with-thumbnail/${meeting.id}`],
    ['GET', `/recordings/meeting/${meeting.id}`],
  ];

  test('the owner reads every route', async () => {
    for (const [method, url] of routes()) {
      const response = await owner.call(method!, url!);
      assert.equal(response.statusCode, 200, `${method} ${url}: ${response.body}`);
    }
    const scenario = ok(await owner.call('GET', `/sentenced-transcripts/scenario/${scenarioId}`), 200);
    assert.equal(scenario.success, true);
    assert.equal(scenario.data.scenario_info.id, scenarioId);
    assert.equal(scenario.data.meetings[0].meeting_id, meeting.id);
    assert.equal(scenario.data.meetings[0].transcripts[0].transcript_id, transcriptId);
    assert.equal(scenario.data.meetings[0].transcripts[0].sentences.length, 3);
    const one = ok(
      await owner.call('GET', `/sentenced-transcripts/${transcriptId}/${meeting.id}/${scenarioId}`),
      200,
    );
    assert.deepEqual(Object.keys(one.data).sort(), ['meeting_info', 'scenario_info', 'sentences']);
    assert.equal(one.data.meeting_info.id, meeting.id);
  });

  test('another workspace gets 404 on every route', async () => {
    for (const [method, url] of routes()) {
      const response = await stranger.call(method!, url!);
      assert.equal(response.statusCode, 404, `${method} ${url}: ${response.body}`);
      assert.equal(response.json().error.code, 'resource_not_found');
    }
    const create = await stranger.call('POST', '/meetings', { scenario_id: scenarioId });
    assert.equal(create.statusCode, 404);
    assert.equal(create.json().error.param, 'scenario_id');
    const usage = ok(await stranger.call('GET', '/usage'), 200).data;
    assert.equal(usage.meetings, 0);
  });

  test('mismatched ids in the sentenced transcript path are 404', async () => {
    const other = await createScenario(owner);
    for (const url of [
      `/sentenced-transcripts/${transcriptId}/${meeting.id}/${other.scenario.id}`,
      `/sentenced-transcripts/${transcriptId + 1000}/${meeting.id}/${scenarioId}`,
      `/sentenced-transcripts/abc/${meeting.id}/${scenarioId}`,
    ]) {
      assert.equal((await owner.call('GET', url)).statusCode, 404, url);
    }
  });

  test('pagination of a scenario’s sentenced transcripts', async () => {
    t.clock.advance(1_000);
    const second = await createMeeting(owner, scenarioId);
    const page = ok(await owner.call('GET', `/sentenced-transcripts/scenario/${scenarioId}?limit=1`), 200);
    assert.equal(page.has_more, true);
    assert.equal(page.data.meetings[0].meeting_id, second.id);
    const next = ok(
      await owner.call(
        'GET',
        `/sentenced-transcripts/scenario/${scenarioId}?limit=1&cursor=${page.next_cursor}`,
      ),
      200,
    );
    assert.equal(next.data.meetings[0].meeting_id, meeting.id);
    assert.equal(next.has_more, false);
    const foreign = await stranger.call(
      'GET',
      `/sentenced-transcripts/scenario/${scenarioId}?cursor=${page.next_cursor}`,
    );
    assert.equal(foreign.statusCode, 404);
  });
});

describe('room API authentication', () => {
  test('a wrong or missing token, or another meeting’s token, gets 404', async () => {
    const other = await createMeeting(owner, scenarioId);
    for (const query of ['', '?t=', `?t=${'A'.repeat(43)}`, `?t=${other.room_token}`]) {
      const response = await t.app.inject({ method: 'GET', url: `/v1/rooms/${meeting.id}${query}` });
      assert.equal(response.statusCode, 404, query);
    }
    const ok = await t.app.inject({
      method: 'GET',
      url: `/v1/rooms/${other.id}`,
      headers: { 'x-room-token': other.room_token },
    });
    assert.equal(ok.statusCode, 200);
    const welcome = ok.json();
    assert.equal(welcome.meeting.status, 'created');
    assert.equal(welcome.live_path, `/v1/rooms/${other.id}/live`);
    assert.ok(!ok.body.includes('SECRET-GOAL') && !ok.body.includes('Ask about'), 'no goals or script');
    assert.equal(ok.headers['access-control-allow-origin'], '*');
  });

  test('an API key does not open the room, and the room token does not open /v1', async () => {
    const withKey = await t.app.inject({
      method: 'GET',
      url: `/v1/rooms/${meeting.id}`,
      headers: { authorization: `Bearer ${owner.key}` },
    });
    assert.equal(withKey.statusCode, 404);
    const withToken = await t.app.inject({
      method: 'GET',
      url: `/v1/meetings/${meeting.id}`,
      headers: { authorization: `Bearer ${meeting.room_token}` },
    });
    assert.equal(withToken.statusCode, 401);
  });

  test('uploads: content type, size, consent and state rules', async () => {
    const fresh = await createMeeting(owner, scenarioId);
    const put = (id: string, token: string, path: string, body: Buffer, type: string) =>
      fetch(`${t.baseUrl}/v1/rooms/${id}${path}?t=${token}`, {
        method: 'PUT',
        headers: { 'content-type': type },
        body: new Uint8Array(body),
      });
    assert.equal(
      (await put(fresh.id, fresh.room_token, '/recording', Buffer.alloc(10), 'video/webm')).status,
      409,
    );
    const p = await Participant.connect(t.baseUrl, fresh.id, fresh.room_token);
    await p.join({ consent: { recording: true } });
    // Any other type is 415 whatever its bytes (these hold NUL characters, or are JSON).
    assert.equal(
      (await put(fresh.id, fresh.room_token, '/recording', Buffer.alloc(10), 'text/plain')).status,
      415,
    );
    assert.equal(
      (await put(fresh.id, fresh.room_token, '/recording', Buffer.from('{"a":1}'), 'application/json'))
        .status,
      415,
    );
    assert.equal(
      (await put(fresh.id, fresh.room_token, '/recording/thumbnail', Buffer.alloc(10), 'video/webm')).status,
      415,
    );
    const big = await put(
      fresh.id,
      fresh.room_token,
      '/recording/thumbnail',
      Buffer.alloc(5 * 1024 * 1024 + 1),
      'image/png',
    );
    assert.equal(big.status, 413);
    assert.equal(
      (await put(fresh.id, 'wrong-token-wrong-token-wrong', '/recording', Buffer.alloc(10), 'video/webm'))
        .status,
      404,
    );
    p.send({ type: 'leave' });
    await p.next('ended');

    const { scenario } = await createScenario(owner, {
      session_options: { recording_consent_required: true },
    });
    const consent = await createMeeting(owner, scenario.id);
    const q = await Participant.connect(t.baseUrl, consent.id, consent.room_token);
    await q.join({ consent: { recording: false }, recording: false });
    assert.equal(
      (await put(consent.id, consent.room_token, '/recording', Buffer.alloc(10), 'video/webm')).status,
      403,
    );
    q.send({ type: 'leave' });
    await q.next('ended');
  });
});

describe('meeting creation validation', () => {
  test('missing, unknown and invalid fields name their parameter', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'scenario_id'],
      [{ scenario_id: scenarioId, meeting_type: 'vip' }, 'meeting_type'],
      [{ scenario_id: scenarioId, colour: 'red' }, 'colour'],
      [{ scenario_id: scenarioId, user_memory_tag: 'has spaces' }, 'user_memory_tag'],
      [{ scenario_id: 'not-a-uuid' }, 'scenario_id'],
    ];
    for (const [body, param] of cases) {
      const response = await owner.call('POST', '/meetings', body);
      assert.ok(response.statusCode === 400 || response.statusCode === 404, response.body);
      assert.equal(response.json().error.param, param, JSON.stringify(body));
    }
  });

  test('usage query parameters are checked', async () => {
    for (const [query, param] of [
      ['?scenario_id=nope', 'scenario_id'],
      ['?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'from'],
      ['?from=2020-01-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'from'],
      ['?to=yesterday', 'to'],
    ]) {
      const response = await owner.call('GET', `/usage${query}`);
      assert.equal(response.statusCode, 400, query);
      assert.equal(response.json().error.param, param, query);
    }
  });

  test('end-user meetings and memory tags', async () => {
    const endUser = await createMeeting(owner, scenarioId, {
      meeting_type: 'end-user',
      user_memory_tag: 'crm:4711',
    });
    const read = ok(await owner.call('GET', `/meetings/${endUser.id}`), 200).data;
    assert.equal(read.meeting_type, 'end-user');
    assert.equal(read.user_memory_tag, 'crm:4711');
    assert.equal(read.participants[0].is_self, false);
    assert.equal(read.status, 'created');
    assert.deepEqual(read.sentenced_transcripts, []);
    assert.equal('analysis' in read, false);
  });

  test('participants[].email: the address given, else the member’s for a regular meeting', async () => {
    const given = await createMeeting(owner, scenarioId, {
      meeting_type: 'end-user',
      person_email: 'sam@example.com',
    });
    const read = ok(await owner.call('GET', `/meetings/${given.id}`), 200).data;
    assert.equal(read.participants[0].email, 'sam@example.com');
    const ws = await t.signup();
    const own = await t.app.inject({
      method: 'POST',
      url: '/v1/meetings',
      headers: { authorization: `Bearer ${ws.token}` },
      payload: { scenario_id: await seededScenarioOf(ws.token) },
    });
    assert.equal(own.statusCode, 201, own.body);
    const mine = await t.app.inject({
      method: 'GET',
      url: `/v1/meetings/${own.json().data.id}`,
      headers: { authorization: `Bearer ${ws.token}` },
    });
    assert.equal(mine.json().data.participants[0].email, ws.email);
    const refused = await owner.call('POST', '/meetings', {
      scenario_id: scenarioId,
      person_email: 'not-an-address',
    });
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().error.param, 'person_email');
  });

  test('without a tag: the member’s container for regular meetings, the participant’s for end users', async () => {
    const tagOf = async (meetingId: string) =>
      (
        await t.deps.db
          .selectFrom('meetings')
          .select('memory_tag')
          .where('id', '=', meetingId)
          .executeTakeFirstOrThrow()
      ).memory_tag;
    // A member's own practice, with their user token or their API key: one container across calls.
    const ws = await t.signup();
    const own = await t.app.inject({
      method: 'POST',
      url: '/v1/meetings',
      headers: { authorization: `Bearer ${ws.token}` },
      payload: { scenario_id: await seededScenarioOf(ws.token) },
    });
    assert.equal(own.statusCode, 201, own.body);
    assert.equal(await tagOf(own.json().data.id), `membership:${ws.membershipId}`);
    // End users are people outside the workspace: none of them shares a container.
    const first = await createMeeting(owner, scenarioId, { meeting_type: 'end-user' });
    const second = await createMeeting(owner, scenarioId, { meeting_type: 'end-user' });
    for (const created of [first, second]) {
      const read = ok(await owner.call('GET', `/meetings/${created.id}`), 200).data;
      assert.equal(read.participants[0].is_self, false);
      assert.equal(await tagOf(created.id), `participant:${read.participants[0].id}`);
    }
    assert.notEqual(await tagOf(first.id), await tagOf(second.id));
  });
});

/** The id of one of the scenarios every new account is seeded with. */
async function seededScenarioOf(token: string): Promise<string> {
  const list = await t.app.inject({
    method: 'GET',
    url: '/v1/scenarios',
    headers: { authorization: `Bearer ${token}` },
  });
  return list.json().data[0].id;
}
