// Live turns across an instance's death, a shutdown and a database outage (docs/reliability.md,
// "Live meetings across restarts"): an utterance is acknowledged (its `transcript.sentence` with
// `client_id`) only once stored; one the room sends again with the id it had is stored and
// answered once; a resumed meeting answers the participant's last words when nothing did; a
// shutting-down instance lets the reply in flight finish or cuts it, stores it as cut, and closes
// the room with 1012; while PostgreSQL is unreachable a meeting keeps what is said and writes it in
// order when the database returns, and a `leave` ends the meeting then; a join during the outage
// is deferred (close 1013), not fatal.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { openPostgres } from '../../src/core/db/database.ts';
import { migrate } from '../../src/core/db/migrator.ts';
import { openTestDatabase, type TestDatabase } from '../../src/core/delivery/testing/test-database.ts';
import { TcpProxy } from '../../src/core/testing/tcp-proxy.ts';
import { liveRepository } from '../../src/platform/live/repository.ts';
import { type ApiClient, type ListeningPlatform, ok, startListeningPlatform } from '../harness.ts';
import { admin, reachable, SERVER_URL } from '../http/cluster.ts';
import { createMeeting, createScenario, type FakeAgent, Participant, startFakeAgent } from './helpers.ts';

/** A reply long enough to be in flight when the instance shuts down: 30 chunks, 100 ms apart. */
const SLOW_REPLY = Array.from({ length: 30 }, (_, i) => `word${i} `);

let database: TestDatabase;
let agent: FakeAgent;

before(async () => {
  database = await openTestDatabase();
  agent = await startFakeAgent((request) => {
    const last = request.body.messages.at(-1)?.content ?? '';
    if (/slow/i.test(last)) return { text: SLOW_REPLY, chunkDelayMs: 100 };
    return { text: [`You said: ${last}`] };
  });
});
after(async () => {
  await agent.close();
  await database.close();
});

/** An instance on the shared database, with a short hand-over so a slow reply gets cut. */
function instance(clock?: ListeningPlatform['clock']): Promise<ListeningPlatform> {
  return startListeningPlatform({ database: database.database, clock, liveHub: { handoverReplyMs: 300 } });
}

async function agentScenario(api: ApiClient) {
  const { scenario } = await createScenario(api, {
    custom_agent_enabled: true,
    custom_agent_config: { base_url: agent.baseUrl, timeout_s: 5 },
  });
  return scenario;
}

async function storedSentences(api: ApiClient, meetingId: string) {
  const read = ok(await api.call('GET', `/meetings/${meetingId}`), 200).data;
  return read.sentenced_transcripts as Array<{ speaker: string; message: string; sequence_number: number }>;
}

describe('an utterance sent again', () => {
  let a: ListeningPlatform;
  let api: ApiClient;
  before(async () => {
    a = await instance();
    api = await a.workspace();
  });
  after(() => a.close());

  test('is acknowledged again with the stored sentence and answered once', async () => {
    const meeting = await createMeeting(api, (await agentScenario(api)).id);
    const p = await Participant.connect(a.baseUrl, meeting.id, meeting.room_token);
    await p.join();
    await p.next('agent.message');
    const sent = p.messages.length;
    p.send({ type: 'utterance', text: 'I build payment systems.', final: true, id: 'u-1' });
    const ack = await p.next('transcript.sentence', (m) => m.client_id === 'u-1');
    await p.firstSince(sent, 'agent.message');
    const before = p.messages.length;
    p.send({ type: 'utterance', text: 'I build payment systems.', final: true, id: 'u-1' });
    const again = await p.next('transcript.sentence', (m) => m.client_id === 'u-1');
    assert.equal(again.sentence.id, ack.sentence.id, 'the stored sentence, not a second one');
    const answer = await p.say('What comes next?', { id: 'u-2' });
    assert.equal(answer.text, 'You said: What comes next?');
    const between = p.since(before).filter((m) => m.type === 'agent.message');
    assert.equal(between.length, 1, 'only the new utterance was answered');
    const users = (await storedSentences(api, meeting.id)).filter((s) => s.speaker === 'user');
    assert.deepEqual(
      users.map((s) => s.message),
      ['I build payment systems.', 'What comes next?'],
    );
    p.send({ type: 'leave' });
    await p.next('ended');
  });
});

describe('a resumed meeting', () => {
  let a: ListeningPlatform;
  let b: ListeningPlatform;
  let api: ApiClient;
  before(async () => {
    a = await instance();
    b = await instance(a.clock);
    api = await a.workspace();
  });
  after(async () => {
    await a.close();
    await b.close();
  });

  test('answers the participant’s last words when the instance that stored them died before its reply', async () => {
    const meeting = await createMeeting(api, (await agentScenario(api)).id);
    const first = await Participant.connect(a.baseUrl, meeting.id, meeting.room_token);
    await first.join();
    await first.next('transcript.sentence');
    // Instance a stores the utterance, then dies before answering (kill -9): its socket drops.
    const session = a.deps.meetings.hub.session(meeting.id)!;
    const transcript = await a.deps.database.db
      .selectFrom('transcripts')
      .select('id')
      .where('meeting_id', '=', meeting.id)
      .executeTakeFirstOrThrow();
    await liveRepository.appendSentence(a.deps.database.db, {
      transcriptId: Number(transcript.id),
      meetingId: meeting.id,
      accountId: session.accountId,
      speaker: 'user',
      message: 'Are you hiring for the platform team?',
      startMs: 1_000,
      endMs: 2_000,
      provider: null,
      clientId: 'u-died',
      now: new Date(),
    });
    first.socket.terminate();
    await first.closed();

    const second = await Participant.connect(b.baseUrl, meeting.id, meeting.room_token);
    const joined = await second.join();
    assert.equal(joined.resumed, true);
    assert.equal(joined.transcript.at(-1).message, 'Are you hiring for the platform team?');
    // The room resends what it was never told was stored: acknowledged, not answered twice.
    second.send({
      type: 'utterance',
      text: 'Are you hiring for the platform team?',
      final: true,
      id: 'u-died',
    });
    const answer = await second.next('agent.message');
    assert.equal(answer.text, 'You said: Are you hiring for the platform team?');
    await second.seen('transcript.sentence', (m) => m.client_id === 'u-died');
    await second.seen('transcript.sentence', (m) => m.sentence.message === answer.text);
    const stored = await storedSentences(api, meeting.id);
    assert.deepEqual(
      stored.map((s) => s.speaker),
      ['agent', 'user', 'agent'],
      'welcome, the utterance once, its answer once',
    );
    second.send({ type: 'leave' });
    await second.next('ended');
  });
});

describe('a shutdown', () => {
  test('cuts the slow reply in flight, stores it as cut, closes 1012, and the other instance answers again', async () => {
    const a = await instance();
    const b = await instance(a.clock);
    try {
      const api = await a.workspace();
      const meeting = await createMeeting(api, (await agentScenario(api)).id);
      const first = await Participant.connect(a.baseUrl, meeting.id, meeting.room_token);
      await first.join();
      await first.next('agent.message');
      const sent = first.messages.length;
      first.send({ type: 'utterance', text: 'Tell me slowly about the role.', final: true, id: 'u-1' });
      await first.next('transcript.sentence', (m) => m.client_id === 'u-1');
      await first.firstSince(sent, 'agent.delta');
      const handingOff = a.deps.meetings.hub.handOffAll();
      // Words sent while the instance hands over are not taken: no acknowledgement comes for them.
      first.send({ type: 'utterance', text: 'Are you still there?', final: true, id: 'u-2' });
      await handingOff;
      const cut = await first.next('agent.message');
      assert.equal(cut.interrupted, true);
      assert.equal(await first.closed(), 1012);
      assert.ok(!first.messages.some((m) => m.client_id === 'u-2'), 'u-2 was not acknowledged');
      const rows = await a.deps.database.db
        .selectFrom('transcript_sentences')
        .select(['speaker', 'message', 'cut', 'end_ms', 'client_id'])
        .where('meeting_id', '=', meeting.id)
        .orderBy('sequence_number')
        .execute();
      const reply = rows.at(-1)!;
      assert.equal(reply.speaker, 'agent');
      assert.equal(reply.cut, 'handover');
      assert.ok(reply.message.startsWith('word0') && reply.message.length < SLOW_REPLY.join('').length);
      assert.ok(reply.end_ms !== null);
      // The stopping instance refuses joins the same way (a load balancer sends the room on).
      const refused = await Participant.connect(a.baseUrl, meeting.id, meeting.room_token);
      refused.send({ type: 'join', consent: { recording: false } });
      assert.equal(await refused.closed(), 1012);

      const second = await Participant.connect(b.baseUrl, meeting.id, meeting.room_token);
      const joined = await second.join();
      assert.equal(joined.resumed, true);
      assert.equal(joined.transcript.at(-1).message, reply.message, 'the room shows what was kept');
      // b answers the utterance whose reply was cut; the resent u-2 then cuts in and is answered.
      second.send({ type: 'utterance', text: 'Are you still there?', final: true, id: 'u-2' });
      await second.seen('transcript.sentence', (m) => m.client_id === 'u-2');
      const answer = await second.next('agent.message', (m) => !m.interrupted);
      assert.equal(answer.text, 'You said: Are you still there?');
      await second.seen('transcript.sentence', (m) => m.sentence.message === answer.text);
      const users = (await storedSentences(api, meeting.id)).filter((s) => s.speaker === 'user');
      assert.deepEqual(
        users.map((s) => s.message),
        ['Tell me slowly about the role.', 'Are you still there?'],
      );
      second.send({ type: 'leave' });
      await second.next('ended');
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('a database outage', {
  skip: !(await reachable(5432)) && 'PostgreSQL is not reachable',
}, () => {
  test('loses no sentence: they are written in order once it is back, and a leave ends the meeting then', async () => {
    const name = `live_outage_${randomBytes(6).toString('hex')}`;
    await admin(`create database ${name}`);
    const direct = new URL(SERVER_URL);
    direct.pathname = `/${name}`;
    const proxy = await TcpProxy.start({ host: direct.hostname, port: Number(direct.port || 5432) });
    const db = await openPostgres(proxy.rewrite(direct.toString()), {
      connectTimeoutMs: 500,
      statementTimeoutMs: 5_000,
    });
    let t: ListeningPlatform | undefined;
    try {
      await migrate(db);
      t = await startListeningPlatform({ database: db, env: { REDIS_URL: '' } });
      const api = await t.workspace();
      const { scenario } = await createScenario(api);
      const meeting = await createMeeting(api, scenario.id);
      const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
      await p.join();
      await p.next('transcript.sentence');
      // A second room connection opened before the outage joins during it.
      const late = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);

      proxy.cut();
      p.send({ type: 'utterance', text: 'I have led two platform teams.', final: true, id: 'o-1' });
      await p.next('agent.message');
      p.send({ type: 'utterance', text: 'Mostly Go and PostgreSQL.', final: true, id: 'o-2' });
      await p.next('agent.message');
      // A join that needs the database now is deferred, not fatal: the room tries again later.
      late.send({ type: 'join', consent: { recording: false } });
      const deferred = await late.next('error');
      assert.equal(deferred.code, 'storage_unavailable');
      assert.equal(deferred.fatal, false);
      assert.equal(await late.closed(), 1013);
      p.send({ type: 'leave' });
      assert.ok(!p.messages.some((m) => m.client_id), 'nothing is acknowledged while nothing is stored');

      proxy.restore();
      const ended = await p.next('ended', () => true, 30_000);
      assert.equal(ended.reason, 'participant_left');
      assert.deepEqual(
        p.messages.filter((m) => m.client_id).map((m) => m.client_id),
        ['o-1', 'o-2'],
        'acknowledged once stored',
      );
      assert.ok(
        !p.messages.some((m) => m.type === 'error'),
        JSON.stringify(p.messages.filter((m) => m.type === 'error')),
      );
      const stored = await storedSentences(api, meeting.id);
      assert.deepEqual(
        stored.map((s) => s.speaker),
        ['agent', 'user', 'agent', 'user', 'agent'],
      );
      assert.deepEqual(
        stored.map((s) => s.sequence_number),
        [1, 2, 3, 4, 5],
      );
      assert.equal(stored[1]!.message, 'I have led two platform teams.');
      assert.equal(stored[3]!.message, 'Mostly Go and PostgreSQL.');
    } finally {
      await t?.close();
      await db.close();
      await proxy.close();
      await admin(`drop database if exists ${name} with (force)`);
    }
  });
});
