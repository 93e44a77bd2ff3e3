// The room's `utterance` frame may say whether the text was spoken or typed (`input`); the
// sentence keeps it so the analysis reports speech rates over spoken sentences only.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ApiClient, ListeningPlatform } from '../harness.ts';
import { createMeeting, createScenario, Participant, startLivePlatform } from './helpers.ts';

let t: ListeningPlatform;
let api: ApiClient;

before(async () => {
  t = await startLivePlatform();
  api = await t.workspace();
});
after(() => t.close());

test('utterances store input voice, typed, or null when the client does not say', async () => {
  const { scenario } = await createScenario(api);
  const meeting = await createMeeting(api, scenario.id);
  const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
  await p.join();
  await p.next('agent.message');
  t.clock.advance(5_000);
  await p.say('Yes, ready.', { input: 'typed' });
  t.clock.advance(5_000);
  await p.say('I have worked on payments systems for eight years.', {
    input: 'voice',
    start_ms: 9_000,
    end_ms: 10_000,
  });
  t.clock.advance(5_000);
  await p.say('Mostly with PostgreSQL.');
  p.send({ type: 'leave' });
  await p.closed();

  const rows = await t.deps.db
    .selectFrom('transcript_sentences')
    .select(['message', 'input', 'end_ms'])
    .where('meeting_id', '=', meeting.id)
    .where('speaker', '=', 'user')
    .orderBy('sequence_number')
    .execute();
  assert.deepEqual(
    rows.map((r) => [r.message, r.input]),
    [
      ['Yes, ready.', 'typed'],
      ['I have worked on payments systems for eight years.', 'voice'],
      ['Mostly with PostgreSQL.', null],
    ],
  );
  assert.equal(rows[1]!.end_ms, 10_000);
});

test('an input other than voice or typed is refused, not stored', async () => {
  const { scenario } = await createScenario(api);
  const meeting = await createMeeting(api, scenario.id);
  const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
  await p.join();
  await p.next('agent.message');
  p.send({ type: 'utterance', text: 'Hello there.', final: true, input: 'telepathy' });
  const error = await p.next('error');
  assert.equal(error.code, 'invalid_message');
  p.send({ type: 'leave' });
  await p.closed();
});
