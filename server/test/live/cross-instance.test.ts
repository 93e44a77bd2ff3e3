// Two platform instances on one database: control signals cross instances through PostgreSQL
// NOTIFY. PUT /end answered by one instance closes the room socket held by the other; a participant
// who reconnects to the other instance takes the meeting over (the first copy is dropped, not
// ended); a meeting no instance holds any more is ended by the sweeper.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openTestDatabase, type TestDatabase } from '../../src/core/delivery/testing/test-database.ts';
import { type ApiClient, type ListeningPlatform, ok, startListeningPlatform } from '../harness.ts';
import { createMeeting, createScenario, Participant } from './helpers.ts';

let database: TestDatabase;
let a: ListeningPlatform;
let b: ListeningPlatform;
let api: ApiClient;

before(async () => {
  database = await openTestDatabase();
  a = await startListeningPlatform({ database: database.database });
  b = await startListeningPlatform({ database: database.database, clock: a.clock });
  api = await a.workspace();
});
after(async () => {
  await a.close();
  await b.close();
  await database.close();
});

const bApi = (): ApiClient => ({
  ...api,
  call: (method, url, payload) =>
    b.app.inject({
      method: method as 'GET',
      url: `/v1${url}`,
      headers: { authorization: `Bearer ${api.key}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    }),
});

describe('several instances', () => {
  test('PUT /end on one instance ends the socket held by the other', async () => {
    const { scenario } = await createScenario(api);
    const meeting = await createMeeting(api, scenario.id);
    const p = await Participant.connect(a.baseUrl, meeting.id, meeting.room_token);
    await p.join();
    await p.next('agent.message');
    ok(await bApi().call('PUT', `/meetings/${meeting.id}/end`), 200);
    const ended = await p.next('ended');
    assert.equal(ended.reason, 'ended_by_api');
    assert.equal(a.deps.meetings.hub.size, 0);
  });

  test('reconnecting to another instance takes the meeting over and keeps the conversation', async () => {
    const { scenario } = await createScenario(api);
    const meeting = await createMeeting(api, scenario.id);
    const first = await Participant.connect(a.baseUrl, meeting.id, meeting.room_token);
    await first.join();
    await first.next('agent.message');
    const prompt = a.deps.meetings.hub.session(meeting.id)!.conversation[0]!.content;
    await first.say('Ready.');
    // Instance b reads what a stored: wait until a has stored the answer (its sentence frame).
    await first.next('transcript.sentence', (m) => m.sentence.sequence_number === 3);
    // A scenario edited mid-call applies to the next meeting, not to this one (the prompt is frozen).
    ok(await api.call('PUT', `/scenarios/${scenario.id}`, { prompt: 'EDITED-MID-CALL script.' }), 200);
    const second = await Participant.connect(b.baseUrl, meeting.id, meeting.room_token);
    const joined = await second.join();
    assert.equal(joined.resumed, true);
    assert.equal(joined.transcript.length, 3);
    const resumedPrompt = b.deps.meetings.hub.session(meeting.id)!.conversation[0]!.content;
    assert.equal(resumedPrompt, prompt, 'the other instance continues with the prompt frozen at the start');
    assert.ok(!resumedPrompt?.includes('EDITED-MID-CALL'));
    assert.equal((await first.next('error')).code, 'replaced');
    assert.equal(await first.closed(), 4001);
    const answer = await second.say('I build payment systems.');
    assert.ok(answer.text.length > 0);
    // The answer is streamed before it is stored; its transcript.sentence frame says it is stored.
    await second.next('transcript.sentence', (m) => m.sentence.sequence_number === 5);
    const read = ok(await api.call('GET', `/meetings/${meeting.id}`), 200).data;
    assert.equal(read.status, 'active', 'a hand-over does not end the meeting');
    assert.deepEqual(
      read.sentenced_transcripts.map((s: { sequence_number: number }) => s.sequence_number),
      [1, 2, 3, 4, 5],
    );
    second.send({ type: 'leave' });
    assert.equal((await second.next('ended')).reason, 'participant_left');
  });

  test('a meeting no instance holds any more is ended by the sweeper', async () => {
    const { scenario } = await createScenario(api);
    const meeting = await createMeeting(api, scenario.id);
    const p = await Participant.connect(a.baseUrl, meeting.id, meeting.room_token);
    await p.join();
    await p.next('agent.message');
    p.close();
    await p.closed();
    a.clock.advance(60_000);
    assert.deepEqual(await b.deps.meetings.lifecycle.sweep({ accountId: api.accountId }), []);
    a.clock.advance(31_000);
    assert.deepEqual(await b.deps.meetings.lifecycle.sweep({ accountId: api.accountId }), [
      { meetingId: meeting.id, reason: 'participant_left' },
    ]);
    const read = ok(await api.call('GET', `/meetings/${meeting.id}`), 200).data;
    assert.equal(read.end_reason, 'participant_left');
    assert.ok(read.participants[0].left_at);
  });
});
