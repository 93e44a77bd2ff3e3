// The Node SDK's RoomClient across a hand-over and a lost connection (docs/realtime.md,
// "Reconnecting"): two platform instances on one database behind a loopback TCP proxy that plays
// the load balancer. With `reconnect: true`, a hand-over (1012) is resumed at once on the other
// instance and the conversation goes on; a final said while the connection is cut is kept pending,
// sent again with its id once the connection is back, acknowledged, stored and answered once.
// Without it, a drop rejects the waits and `rejoin()` resumes, resending a final whose
// acknowledgement was lost. Then the close-code policy against a scripted socket.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import {
  RoomClient,
  RoomError,
  type RoomFrame,
  Understudy,
  type WebSocketConstructor,
  type WebSocketLike,
} from '../../../sdk/node/src/index.ts';
import { openTestDatabase, type TestDatabase } from '../../src/core/delivery/testing/test-database.ts';
import { TcpProxy } from '../../src/core/testing/tcp-proxy.ts';
import { type ListeningPlatform, startListeningPlatform } from '../harness.ts';

/** Polls `condition` until it holds (a cap against hanging, not a timing assertion). */
async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A `ws` WebSocket per connection that records what the client sends and how each socket closed. */
function recordingWebSocket() {
  const sent: Array<Record<string, any>> = [];
  const closes: number[] = [];
  let sockets = 0;
  /** `client_id`s whose acknowledgement is swallowed (as if lost with the connection). */
  const swallow = new Set<string>();
  class Recording extends WebSocket {
    constructor(url: string) {
      super(url);
      sockets += 1;
      this.on('close', (code) => closes.push(code));
    }
    override send(data: any, ...rest: any[]): void {
      sent.push(JSON.parse(String(data)));
      (super.send as (...args: unknown[]) => void)(data, ...rest);
    }
    override addEventListener(type: string, listener: (event: any) => void): void {
      if (type !== 'message') return void super.addEventListener(type as 'open', listener);
      super.addEventListener('message', (event) => {
        if (typeof event.data === 'string' && swallow.size > 0) {
          const frame = JSON.parse(event.data);
          if (frame.type === 'transcript.sentence' && swallow.has(frame.client_id)) return;
        }
        listener(event);
      });
    }
  }
  return {
    WebSocket: Recording as unknown as WebSocketConstructor,
    sent,
    closes,
    swallow,
    get sockets() {
      return sockets;
    },
  };
}

describe('RoomClient across instances', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let a: ListeningPlatform;
  let b: ListeningPlatform;
  let client: Understudy;
  const toA = () => proxy.retarget({ host: '127.0.0.1', port: Number(new URL(a.baseUrl).port) });
  const toB = () => proxy.retarget({ host: '127.0.0.1', port: Number(new URL(b.baseUrl).port) });

  before(async () => {
    database = await openTestDatabase();
    // The proxy's address is the public one: the room's socket goes through it.
    proxy = await TcpProxy.start({ host: '127.0.0.1', port: 9 });
    const env = { PUBLIC_URL: `http://127.0.0.1:${proxy.port}` };
    a = await startListeningPlatform({ database: database.database, env });
    b = await startListeningPlatform({ database: database.database, env, clock: a.clock });
    const workspace = await a.workspace();
    // The API (not the room) goes straight to b: cutting the proxy leaves it reachable.
    client = new Understudy({ apiKey: workspace.key, baseUrl: b.baseUrl });
  });

  after(async () => {
    await a?.close();
    await b?.close();
    await proxy?.close();
    await database?.close();
  });

  async function createMeeting() {
    const persona = await client.personas.create({ name: 'Jane Doe', job_title: 'Engineering Manager' });
    const scenario = await client.scenarios.create({
      name: 'SDK resume',
      type: 'interview',
      persona_id: persona.id,
      prompt: '## Questions\n1. Ask about their background.\n2. Ask about a system they designed.',
      welcome_message: 'Hi, I am Jane. Shall we begin?',
    });
    return (await client.meetings.create({ scenario_id: scenario.id, person_name: 'Sam Lee' })).data;
  }

  function roomFor(meeting: { id: string; room_token: string }, options: { reconnect?: boolean } = {}) {
    const socket = recordingWebSocket();
    const room = new RoomClient({
      baseUrl: `http://127.0.0.1:${proxy.port}`,
      meetingId: meeting.id,
      roomToken: meeting.room_token,
      WebSocket: socket.WebSocket,
      timeout: 30_000,
      ...options,
    });
    return { room, socket };
  }

  /** The participant's stored sentences, read through the API. */
  async function storedUserLines(meetingId: string): Promise<string[]> {
    const read = await client.meetings.get(meetingId);
    return read.data.sentenced_transcripts
      .filter((s: { speaker: string }) => s.speaker === 'user')
      .map((s: { message: string }) => s.message);
  }

  /** Waits for the stored sentence of `answer` (its `transcript.sentence`), so the API shows it. */
  async function storedAnswer(room: RoomClient, answer: RoomFrame): Promise<void> {
    const isIt = (f: RoomFrame) =>
      f.type === 'transcript.sentence' &&
      f.sentence.speaker === 'agent' &&
      f.sentence.message === answer.text;
    if (!room.frames.some(isIt)) await room.next(isIt);
  }

  test('a hand-over (1012) is resumed at once on the other instance, and the conversation goes on', async () => {
    toA();
    const meeting = await createMeeting();
    const { room, socket } = roomFor(meeting, { reconnect: true });
    const joined = await room.join();
    assert.equal(joined.resumed, false);
    await room.next('agent.message');
    const first = await room.ask('I led the payments team for three years.');
    assert.equal(first.interrupted, false);
    await storedAnswer(room, first);
    assert.deepEqual(room.pending, [], 'acknowledged');

    // A deploy: instance a hands its meetings over (1012); the balancer now sends connections to b.
    toB();
    const handingOff = a.deps.meetings.hub.handOffAll();
    // Said during the hand-over: a takes no new words, so it goes again on b.
    const id = room.say('Are you still there?');
    await handingOff;
    const resumed = await room.next((f) => f.type === 'joined' && f.resumed === true);
    assert.ok(socket.closes.includes(1012), `closes: ${socket.closes}`);
    assert.equal(socket.sockets, 2, 'one attempt, at once, reached b');
    assert.equal(room.state, 'joined');
    assert.ok(b.deps.meetings.hub.session(meeting.id), 'instance b holds the meeting');
    assert.equal(
      resumed.transcript.some(
        (s: { message: string }) => s.message === 'I led the payments team for three years.',
      ),
      true,
    );
    const still = await room.next((f) => f.type === 'agent.message' && !f.interrupted);
    await until(() => room.pending.length === 0, 'the acknowledgement from b');
    assert.ok(room.frames.some((f) => f.type === 'transcript.sentence' && f.client_id === id));
    await storedAnswer(room, still);

    const answer = await room.ask('Mostly Go and PostgreSQL.');
    assert.equal(answer.interrupted, false);
    assert.ok(answer.text.length > 0);
    await storedAnswer(room, answer);
    assert.deepEqual(await storedUserLines(meeting.id), [
      'I led the payments team for three years.',
      'Are you still there?',
      'Mostly Go and PostgreSQL.',
    ]);
    const ended = await room.leave();
    assert.equal(ended.reason, 'participant_left');
    await until(() => room.state === 'closed', 'the close after ended');
    assert.equal(room.closeCode, 1000);
  });

  test('a final said while the connection is cut is kept, sent again with its id, stored and answered once', async () => {
    toB();
    const meeting = await createMeeting();
    const { room, socket } = roomFor(meeting, { reconnect: true });
    await room.join();
    await room.next('agent.message');
    const first = await room.ask('I led the payments team for three years.');
    await storedAnswer(room, first);

    // The connection is lost just as the participant speaks: the frame goes into a dead socket.
    proxy.cut();
    const id = room.say('Mostly Go and PostgreSQL.');
    assert.deepEqual(
      room.pending.map((f) => [f.id, f.text]),
      [[id, 'Mostly Go and PostgreSQL.']],
    );
    await until(() => room.state === 'reconnecting', 'the client to notice the drop');
    const socketsAtCut = socket.sockets;
    await until(() => socket.sockets >= socketsAtCut + 2, 'two attempts refused while cut');
    assert.equal(room.pending.length, 1, 'still pending while cut');
    const joinedBefore = room.frames.filter((f) => f.type === 'joined').length;

    proxy.restore();
    const answer = await room.next('agent.message');
    assert.equal(answer.interrupted, false);
    assert.equal(room.frames.filter((f) => f.type === 'joined').length, joinedBefore + 1);
    // The acknowledgement follows the write, which may end after the reply has streamed.
    await until(() => room.pending.length === 0, 'the acknowledgement');
    await storedAnswer(room, answer);
    const acks = room.frames.filter((f) => f.type === 'transcript.sentence' && f.client_id === id);
    assert.equal(acks.length, 1, 'acknowledged once');
    const sends = socket.sent.filter((f) => f.type === 'utterance' && f.text === 'Mostly Go and PostgreSQL.');
    assert.ok(sends.length >= 2, `sent into the cut socket, then again: ${JSON.stringify(sends)}`);
    assert.deepEqual(new Set(sends.map((f) => f.id)), new Set([id]), 'always with the same id');
    const lastJoin = socket.sent.findLastIndex((f) => f.type === 'join');
    assert.ok(socket.sent.findLastIndex((f) => f.id === id) > lastJoin, 'sent again after the new join');

    assert.deepEqual(await storedUserLines(meeting.id), [
      'I led the payments team for three years.',
      'Mostly Go and PostgreSQL.',
    ]);
    const read = await client.meetings.get(meeting.id);
    const speakers = read.data.sentenced_transcripts.map((s: { speaker: string }) => s.speaker);
    assert.deepEqual(speakers, ['agent', 'user', 'agent', 'user', 'agent'], 'answered once');
    await room.leave();
  });

  test('without reconnect, a drop rejects the wait; rejoin() resends a final whose acknowledgement was lost, answered once', async () => {
    toB();
    const meeting = await createMeeting();
    const { room, socket } = roomFor(meeting);
    await room.join();
    await room.next('agent.message');
    socket.swallow.add('lost-ack');
    const answer = await room.ask('I led the payments team for three years.', { id: 'lost-ack' });
    await storedAnswer(room, answer);
    assert.deepEqual(
      room.pending.map((f) => f.id),
      ['lost-ack'],
      'stored, but the client never heard so',
    );

    proxy.cut();
    await assert.rejects(room.next('agent.message'), (error: unknown) => {
      assert.ok(error instanceof RoomError);
      assert.match(error.message, /closed \(1006\)/);
      return true;
    });
    assert.equal(room.state, 'closed');
    await assert.rejects(room.rejoin(), RoomError, 'refused while cut');
    proxy.restore();

    socket.swallow.clear();
    const joined = await room.rejoin();
    assert.equal(joined.resumed, true);
    const ack = await room.next((f) => f.type === 'transcript.sentence' && f.client_id === 'lost-ack');
    assert.equal(ack.sentence.message, 'I led the payments team for three years.');
    assert.deepEqual(room.pending, []);
    const next = await room.ask('Mostly Go and PostgreSQL.');
    await storedAnswer(room, next);
    const between = room.frames.slice(room.frames.indexOf(joined));
    assert.equal(
      between.filter((f) => f.type === 'agent.message').length,
      1,
      'the resent final was not answered again',
    );
    const read = await client.meetings.get(meeting.id);
    assert.deepEqual(
      read.data.sentenced_transcripts.map((s: { speaker: string; message: string }) => [
        s.speaker,
        s.message,
      ]),
      [
        ['agent', 'Hi, I am Jane. Shall we begin?'],
        ['user', 'I led the payments team for three years.'],
        ['agent', answer.text],
        ['user', 'Mostly Go and PostgreSQL.'],
        ['agent', next.text],
      ],
    );
    await room.leave();
  });
});

/**
 * A scripted room server: each socket the client opens is one of these. `refuse` makes new sockets
 * fail before opening (a cut connection); otherwise they open and answer `join` with `joined`.
 */
function scriptedRoom() {
  const sockets: FakeSocket[] = [];
  let refuse = false;
  let onJoin = (socket: FakeSocket) =>
    socket.frame({ type: 'joined', resumed: sockets.length > 1, transcript: [] });
  class FakeSocket implements WebSocketLike {
    binaryType = 'blob';
    readyState = 0;
    readonly sent: Array<Record<string, any>> = [];
    readonly createdAt = Date.now();
    #listeners = new Map<string, Array<(event: unknown) => void>>();
    constructor() {
      sockets.push(this);
      const refused = refuse;
      setImmediate(() => {
        if (refused) {
          this.emit('error', {});
          this.drop(1006);
          return;
        }
        this.readyState = 1;
        this.emit('open', {});
      });
    }
    addEventListener(type: string, listener: (event: unknown) => void) {
      this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
    }
    emit(type: string, event: unknown) {
      for (const listener of this.#listeners.get(type) ?? []) listener(event);
    }
    send(data: string) {
      const frame = JSON.parse(data);
      this.sent.push(frame);
      if (frame.type === 'join') setImmediate(() => onJoin(this));
      if (frame.type === 'leave')
        setImmediate(() => {
          this.frame({ type: 'ended', reason: 'participant_left' });
          this.drop(1000);
        });
    }
    frame(frame: RoomFrame) {
      this.emit('message', { data: JSON.stringify(frame) });
    }
    drop(code: number) {
      this.readyState = 3;
      this.emit('close', { code });
    }
    close() {
      if (this.readyState !== 3) setImmediate(() => this.drop(1000));
    }
  }
  return {
    WebSocket: FakeSocket as unknown as WebSocketConstructor,
    sockets,
    set refuse(value: boolean) {
      refuse = value;
    },
    /** What a socket answers to `join` (default: `joined`). */
    set onJoin(answer: (socket: FakeSocket) => void) {
      onJoin = answer;
    },
  };
}

describe('RoomClient close-code policy (scripted socket)', () => {
  const open = (server: ReturnType<typeof scriptedRoom>, reconnect: RoomClientReconnect = true) =>
    new RoomClient({
      baseUrl: 'http://room.test',
      meetingId: 'm',
      roomToken: 't',
      WebSocket: server.WebSocket,
      reconnect,
    });
  type RoomClientReconnect = boolean | { windowMs?: number; maxDelayMs?: number };

  test('say() generates an id, keeps the frame until acknowledged, and refuses before join', async () => {
    const server = scriptedRoom();
    const room = open(server, false);
    assert.throws(() => room.say('too early'), RoomError);
    await room.join();
    const id = room.say('Hello.');
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.equal(room.say('Again.', { id: 'mine', input: 'voice' }), 'mine');
    assert.deepEqual(
      room.pending.map((f) => [f.id, f.text, f.final]),
      [
        [id, 'Hello.', true],
        ['mine', 'Again.', true],
      ],
    );
    server.sockets[0]!.frame({ type: 'transcript.sentence', sentence: {}, client_id: id });
    assert.deepEqual(
      room.pending.map((f) => f.id),
      ['mine'],
    );
  });

  test('1012 reconnects at once and resends the unacknowledged finals, in order, after joined', async () => {
    const server = scriptedRoom();
    const room = open(server);
    await room.join();
    room.say('One.', { id: 'u1' });
    room.say('Two.', { id: 'u2' });
    server.sockets[0]!.frame({ type: 'transcript.sentence', sentence: {}, client_id: 'u1' });
    const droppedAt = Date.now();
    server.sockets[0]!.drop(1012);
    assert.equal(room.state, 'reconnecting');
    room.say('Three.', { id: 'u3' }); // said meanwhile: goes after the new join
    const joined = await room.next((f) => f.type === 'joined' && f.resumed);
    assert.equal(joined.resumed, true);
    const second = server.sockets[1]!;
    assert.ok(second.createdAt - droppedAt < 200, 'at once');
    assert.deepEqual(
      second.sent.map((f) => f.id ?? f.type),
      ['join', 'u2', 'u3'],
    );
  });

  test('a drop backs off and gives up after the resume window; the waits then reject', async () => {
    const server = scriptedRoom();
    const room = open(server, { windowMs: 600, maxDelayMs: 100 });
    await room.join();
    server.refuse = true;
    const waiting = room.next('agent.message', 10_000);
    server.sockets[0]!.drop(1006);
    await assert.rejects(waiting, /closed \(1006, not resumed within 600 ms\)/);
    assert.equal(room.state, 'closed');
    assert.ok(server.sockets.length >= 3, `${server.sockets.length} sockets`);
  });

  for (const [what, act] of [
    ['close 4001 (replaced)', (s: ReturnType<typeof scriptedRoom>) => s.sockets[0]!.drop(4001)],
    [
      'close 1000 after ended',
      (s: ReturnType<typeof scriptedRoom>) => {
        s.sockets[0]!.frame({ type: 'ended', reason: 'participant_left' });
        s.sockets[0]!.drop(1000);
      },
    ],
    [
      'a fatal error then 1011',
      (s: ReturnType<typeof scriptedRoom>) => {
        s.sockets[0]!.frame({ type: 'error', code: 'internal_error', message: 'x', fatal: true });
        s.sockets[0]!.drop(1011);
      },
    ],
  ] as const) {
    test(`no reconnection after ${what}`, async () => {
      const server = scriptedRoom();
      const room = open(server);
      await room.join();
      act(server);
      assert.equal(room.state, 'closed');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(server.sockets.length, 1);
    });
  }

  test('leave() during a reconnection goes out after the next joined', async () => {
    const server = scriptedRoom();
    const room = open(server);
    await room.join();
    server.sockets[0]!.drop(1006);
    const ended = await room.leave();
    assert.equal(ended.reason, 'participant_left');
    assert.deepEqual(
      server.sockets[1]!.sent.map((f) => f.type),
      ['join', 'leave'],
    );
    assert.equal(room.state, 'closed');
  });

  test('leave() whose meeting ended meanwhile resolves with ended (after the join is answered meeting_ended)', async () => {
    const server = scriptedRoom();
    const room = open(server);
    await room.join();
    // The meeting ends while the client is away (say, a leave that got through just before the drop).
    server.onJoin = (socket) => {
      socket.frame({ type: 'error', code: 'meeting_ended', message: 'The meeting has ended.', fatal: true });
      socket.frame({ type: 'ended', reason: 'participant_left' });
      socket.drop(1000);
    };
    server.sockets[0]!.drop(1006);
    const ended = await room.leave();
    assert.equal(ended.reason, 'participant_left');
    assert.equal(room.state, 'closed');
    assert.deepEqual(
      server.sockets[1]!.sent.map((f) => f.type),
      ['join'],
    );
  });

  test('close() stops a reconnection under way', async () => {
    const server = scriptedRoom();
    const room = open(server);
    await room.join();
    server.refuse = true;
    server.sockets[0]!.drop(1006);
    assert.equal(room.state, 'reconnecting');
    const waiting = room.next('agent.message');
    room.close();
    await assert.rejects(waiting, RoomError);
    const count = server.sockets.length;
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.equal(server.sockets.length, count);
  });
});
