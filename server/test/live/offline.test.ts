// End to end with the embedded offline script engine (no LLM configured): a scripted participant
// joins over the realtime protocol, answers the script's questions, and the persona wraps up and
// ends the call when the participant has nothing more. Also the duration limit (fake clock + sweeper), PUT /end reaching the
// socket through NOTIFY, resuming after a dropped connection, and the analysis running after.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPlatformJobRunner } from '../../src/app/jobs.ts';
import { URL_TTL_SECONDS } from '../../src/platform/recordings/service.ts';
import { type ApiClient, type ListeningPlatform, ok } from '../harness.ts';
import {
  createMeeting,
  createScenario,
  eventsOf,
  Participant,
  startLivePlatform,
  subscribeAll,
  uploadRecording,
} from './helpers.ts';

let t: ListeningPlatform;
let api: ApiClient;

before(async () => {
  t = await startLivePlatform();
  api = await t.workspace();
  await subscribeAll(api);
});
after(() => t.close());

describe('offline engine over the realtime protocol', () => {
  test('joins, walks the script, ends with script_complete, stores transcript, recording and events', async () => {
    const { scenario, persona } = await createScenario(api);
    const meeting = await createMeeting(api, scenario.id, { note_context: 'Focus on databases.' });
    assert.equal(meeting.room_meeting_url, `${t.baseUrl}/room/${meeting.id}`);
    assert.equal(meeting.meeting_url, `${t.baseUrl}/meetings/${meeting.id}?t=${meeting.room_token}`);
    // A meeting read cannot know the token (stored hashed): its meeting_url is the plain page.
    const plain = ok(await api.call('GET', `/meetings/${meeting.id}`)).data;
    assert.equal(plain.meeting_url, `${t.baseUrl}/meetings/${meeting.id}`);

    const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
    const joined = await p.join();
    assert.equal(joined.meeting.status, 'active');
    assert.equal(joined.persona.name, persona.name);
    assert.equal(joined.resumed, false);
    assert.deepEqual(joined.transcript, []);
    assert.ok(!JSON.stringify(joined).includes('SECRET-GOAL'), 'goals never reach the room');

    const welcome = await p.next('agent.message');
    assert.equal(welcome.text, 'Hi, I am Jane. Shall we begin?');
    const welcomeSentence = await p.next('transcript.sentence');
    assert.equal(welcomeSentence.sentence.speaker, 'agent');
    assert.equal(welcomeSentence.sentence.sequence_number, 1);

    t.clock.advance(5_000);
    const first = await p.say('Yes, ready.', { id: 'u1' });
    assert.match(first.text, /background/i);
    t.clock.advance(65_000);
    const second = await p.say('I have worked on payments systems for eight years, mostly with PostgreSQL.');
    assert.match(second.text, /system/i);
    t.clock.advance(40_000);
    // The last step answered, the persona wraps up and asks whether there is anything else; the
    // call ends when the participant has nothing more.
    const wrapUp = await p.say('I designed a ledger service that handles a million writes a day.');
    assert.match(wrapUp.text, /\?/);
    p.send({ type: 'utterance', text: "No, that's all from me, thanks.", final: true });
    const ended = await p.next('ended');
    assert.equal(ended.reason, 'script_complete');
    assert.equal(ended.duration_seconds, 110);
    assert.equal(await p.closed(), 1000);

    const userSentence = p.messages.find((m) => m.type === 'transcript.sentence' && m.client_id === 'u1');
    assert.equal(userSentence?.sentence.speaker, 'user');
    assert.equal(userSentence?.sentence.start_duration, '00:05');

    await uploadRecording(t, meeting.id, meeting.room_token);
    const runner = createPlatformJobRunner(t.deps);
    const ran = await runner.drain();
    assert.ok(ran.some((job) => job.name === 'meeting.finalize' && job.outcome === 'succeeded'));

    const read = ok(await api.call('GET', `/meetings/${meeting.id}`), 200).data;
    assert.equal(read.status, 'ended');
    assert.equal(read.end_reason, 'script_complete');
    assert.equal(read.agent_provider, 'offline');
    assert.equal(read.meeting_type, 'regular', 'the default meeting type');
    assert.equal(read.duration_seconds, 110);
    assert.equal(read.Scenario.id, scenario.id);
    assert.equal(read.Scenario.Persona.name, persona.name);
    assert.equal(read.Scenario.Goals.length, 1);
    assert.equal(read.participants.length, 1);
    assert.equal(read.participants[0].name, 'Sam Lee');
    assert.ok(read.participants[0].joined_at && read.participants[0].left_at);
    const speakers = read.sentenced_transcripts.map((s: { speaker: string }) => s.speaker);
    assert.deepEqual(speakers, ['agent', 'user', 'agent', 'user', 'agent', 'user', 'agent', 'user', 'agent']);
    assert.deepEqual(
      read.sentenced_transcripts.map((s: { sequence_number: number }) => s.sequence_number),
      [1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
    assert.equal(read.sentenced_transcripts[3].start_duration, '01:10');
    assert.equal(read.analysis_status, 'completed');
    assert.equal(read.analysis.meeting_id, meeting.id, 'the analysis is embedded once completed');

    const transcripts = ok(await api.call('GET', `/transcripts/meeting/${meeting.id}`), 200);
    assert.equal(transcripts.length, 1);
    assert.equal(transcripts[0].status, 'completed');
    assert.match(
      transcripts[0].content,
      /^Jane Doe: Hi, I am Jane\. Shall we begin\?\nSam Lee: Yes, ready\./,
    );

    const events = await eventsOf(t.deps, meeting.id);
    const order = events.map((e) => e.event).filter((e) => e !== 'recording.ready');
    assert.deepEqual(order, [
      'meeting.created',
      'participant.joined',
      'participant.left',
      'meeting.ended',
      'transcript.ready',
      'session.analysis_complete',
    ]);
    const recordingReady = events.find((e) => e.event === 'recording.ready');
    assert.ok(recordingReady, 'recording.ready fired');
    const transcriptReady = events.find((e) => e.event === 'transcript.ready')!;
    assert.equal(transcriptReady.data.sentence_count, 9);
    assert.equal(transcriptReady.data.transcript_id, read.sentenced_transcripts[0].transcript_id);
    assert.equal(events.find((e) => e.event === 'meeting.ended')!.data.duration_seconds, 110);
    const joinedEvent = events.find((e) => e.event === 'participant.joined')!;
    assert.equal(joinedEvent.data.participant.id, read.participants[0].id);
    assert.equal(joinedEvent.data.participant.joined_at, read.participants[0].joined_at);
    assert.equal(joinedEvent.data.participant.left_at, null);
    const leftEvent = events.find((e) => e.event === 'participant.left')!;
    assert.equal(leftEvent.data.participant.left_at, read.participants[0].left_at);
    for (const event of events) {
      assert.equal(event.data.meeting_id, meeting.id);
      assert.equal(event.data.scenario_id, scenario.id);
    }

    const recording = ok(await api.call('GET', `/recordings/url-with-thumbnail/${meeting.id}`), 200).data;
    assert.equal(recording.recording_id, recordingReady.data.recording_id);
    assert.equal(recording.content_type, 'video/webm');
    const media = await fetch(recording.url);
    assert.equal(media.status, 200);
    assert.equal(Buffer.from(await media.arrayBuffer()).length, recording.size_bytes);
    const thumb = await fetch(recording.thumbnail_url);
    assert.equal(thumb.headers.get('content-type'), 'image/png');
    const raw = ok(await api.call('GET', `/recordings/meeting/${meeting.id}`), 200).data;
    assert.ok(raw.url.startsWith(`${t.baseUrl}/storage/`));

    const usage = ok(await api.call('GET', '/usage'), 200).data;
    const offline = usage.by_provider.find((row: { provider: string }) => row.provider === 'offline');
    assert.ok(offline.session_seconds >= 110);
    assert.equal(offline.prompt_tokens, 0);

    // The signed URL is refused once altered, and once expired.
    const tampered = new URL(recording.url);
    tampered.searchParams.set('signature', `${tampered.searchParams.get('signature')}x`);
    assert.equal((await fetch(tampered)).status, 404);
    t.clock.advance((URL_TTL_SECONDS + 1) * 1000);
    assert.equal((await fetch(recording.url)).status, 404);
  });

  test('the duration limit ends the meeting (fake clock, sweeper) and the room is told', async () => {
    const { scenario } = await createScenario(api, { call_duration: 1 });
    const meeting = await createMeeting(api, scenario.id);
    const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
    const joined = await p.join();
    assert.equal(joined.meeting.duration_limit_seconds, 60);
    await p.next('agent.message');
    t.clock.advance(59_000);
    assert.deepEqual(await t.deps.meetings.lifecycle.sweep({ accountId: api.accountId }), []);
    t.clock.advance(2_000);
    const swept = await t.deps.meetings.lifecycle.sweep({ accountId: api.accountId });
    assert.deepEqual(swept, [{ meetingId: meeting.id, reason: 'duration_limit' }]);
    const ended = await p.next('ended');
    assert.equal(ended.reason, 'duration_limit');
    assert.equal(ended.duration_seconds, 61);
  });

  test('PUT /meetings/{id}/end reaches the socket and is idempotent', async () => {
    const { scenario } = await createScenario(api);
    const meeting = await createMeeting(api, scenario.id);
    const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
    await p.join();
    await p.next('agent.message');
    const first = ok(await api.call('PUT', `/meetings/${meeting.id}/end`), 200).data;
    assert.equal(first.status, 'ended');
    assert.equal(first.end_reason, 'ended_by_api');
    assert.equal(first.already_ended, false);
    const ended = await p.next('ended');
    assert.equal(ended.reason, 'ended_by_api');
    const again = ok(await api.call('PUT', `/meetings/${meeting.id}/end`), 200).data;
    assert.equal(again.already_ended, true);

    // An ended meeting cannot be joined again.
    const late = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
    late.send({ type: 'join', consent: { recording: false } });
    const error = await late.next('error');
    assert.equal(error.code, 'meeting_ended');
    assert.equal((await late.next('ended')).reason, 'ended_by_api');
  });

  test('a dropped connection resumes: same transcript, no second welcome, joined_at unchanged', async () => {
    const { scenario } = await createScenario(api);
    const meeting = await createMeeting(api, scenario.id);
    const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
    await p.join();
    await p.next('agent.message');
    // The answer's sentence may not be stored yet when agent.message arrives; the resumed join
    // still lists it (the hub waits for the session's writes).
    await p.say('Ready.');
    p.close();
    await p.closed();
    const again = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
    const joined = await again.join();
    assert.equal(joined.resumed, true);
    assert.equal(joined.transcript.length, 3);
    const answer = await again.say('I build payment systems.');
    assert.ok(answer.text.length > 0);
    assert.equal(again.messages.filter((m) => m.type === 'agent.message').length, 1, 'no second welcome');
    const events = await eventsOf(t.deps, meeting.id);
    assert.equal(events.filter((e) => e.event === 'participant.joined').length, 1);

    // A second connection replaces the first.
    const third = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
    await third.join();
    const replaced = await again.next('error');
    assert.equal(replaced.code, 'replaced');
    assert.equal(await again.closed(), 4001);
    third.send({ type: 'leave' });
    assert.equal((await third.next('ended')).reason, 'participant_left');
  });

  test('protocol errors: not joined, invalid frames, wrong token refused before the upgrade', async () => {
    const { scenario } = await createScenario(api);
    const meeting = await createMeeting(api, scenario.id);
    await assert.rejects(Participant.connect(t.baseUrl, meeting.id, 'x'.repeat(43)), /HTTP 404/);
    const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
    p.send({ type: 'utterance', text: 'hello', final: true });
    assert.equal((await p.next('error')).code, 'not_joined');
    p.socket.send('not json');
    assert.equal((await p.next('error')).code, 'invalid_message');
    p.send({ type: 'dance' });
    assert.equal((await p.next('error')).code, 'invalid_message');
    p.send({ type: 'ping', ts: 42 });
    assert.equal((await p.next('pong')).ts, 42);
    await p.join();
    p.send({ type: 'join' });
    assert.equal((await p.next('error')).code, 'already_joined');
    p.send({ type: 'utterance', text: '   ', final: true });
    assert.equal((await p.next('error')).code, 'invalid_message');
    p.send({ type: 'leave' });
    await p.next('ended');
  });
});
