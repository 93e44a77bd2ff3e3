// A stand-in for the room API and WebSocket (docs/realtime.md) with a scripted persona, for
// working on the room's look and behaviour without a database: `npx tsx server/test/room/fake-room-server.ts`
// prints a room URL. It claims a recogniser and a synthesiser (welcome `speech`): the persona's
// "voice" is a hum shaped like speech (agent.audio + binary frames, one per sentence), and the
// microphone stream is only logged (`voice`), never recognised. The browser tests of the whole
// loop run against the real platform.
import websocket from '@fastify/websocket';
import Fastify from 'fastify';
import type { AppInstance } from '../../src/core/http/types.ts';
import { registerRoomPages } from '../../src/platform/room/plugin.ts';

export const FAKE_MEETING_ID = '5b1f0c3e-8a4d-4f1e-9c2b-7d6e5f4a3b21';
export const FAKE_TOKEN = 'fake-room-token-0123456789abcdefghijklmnopq';

const HUM_RATE = 16_000;

/** A voice-like hum for a sentence: a 140 Hz buzz with harmonics, in syllables of ~180 ms. */
function humPcm(sentence: string): Buffer {
  const samples = Math.round(HUM_RATE * Math.max(0.6, sentence.length * 0.055));
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i += 1) {
    const t = i / HUM_RATE;
    const syllable = Math.max(0, Math.sin(Math.PI * ((t / 0.18) % 1)));
    const buzz =
      Math.sin(2 * Math.PI * 140 * t) +
      0.5 * Math.sin(2 * Math.PI * 280 * t) +
      0.25 * Math.sin(2 * Math.PI * 420 * t);
    pcm.writeInt16LE(Math.round(4000 * syllable * buzz), i * 2);
  }
  return pcm;
}

export async function startFakeRoomServer(port = 0) {
  const app = Fastify({ logger: false });
  await app.register(websocket);
  const uploads: { path: string; type: string; size: number; body: Buffer }[] = [];
  let status: 'created' | 'active' | 'ended' = 'created';
  let startedAt: Date | null = null;
  const sentences: object[] = [];
  const limit = 600;
  /** What the room sent about its microphone: `audio.start`/`audio.stop` and binary frame sizes. */
  const voice: { events: string[]; frames: number; bytes: number } = { events: [], frames: 0, bytes: 0 };
  /** Sends a server message to the room that joined last (tests script speech events with it). */
  let push: (message: object) => void = () => {
    throw new Error('no room has joined');
  };

  const welcome = (origin: string) => ({
    meeting: {
      id: FAKE_MEETING_ID,
      status,
      person_name: 'Sam Lee',
      started_at: startedAt?.toISOString() ?? null,
      ends_at: startedAt ? new Date(startedAt.getTime() + limit * 1000).toISOString() : null,
      ended_at: null,
      end_reason: null,
      duration_limit_seconds: limit,
    },
    scenario: {
      name: 'Backend Engineer Interview',
      description:
        'A 10-minute screening interview for a senior backend role: your experience, a system you designed, and how you handle incidents.',
      type: 'interview',
    },
    persona: {
      name: 'Elena Fischer',
      job_title: 'Engineering Manager, Platform',
      avatar_url: `${origin}/fake-avatar.svg`,
      gender: 'female',
      voice: {
        id: 'v1',
        name: 'Ava',
        language: 'en-US',
        browser_voice_hints: ['Google US English', 'Samantha'],
        tts_voice: 'nova',
      },
    },
    recording: { enabled: true, consent_required: true, max_bytes: 524288000 },
    controls: { allow_participant_end: true, show_timer: true },
    speech: {
      recognition: 'pocketsphinx',
      synthesis: 'flite',
      input: { encoding: 'pcm_s16le', sample_rate: 16000, channels: 1 },
    },
    live_path: `/v1/rooms/${FAKE_MEETING_ID}/live`,
    server_time: new Date().toISOString(),
  });

  await registerRoomPages(app as unknown as AppInstance, {
    publicUrl: 'http://127.0.0.1',
    checkRoomToken: async (id, token) =>
      id === FAKE_MEETING_ID && token === FAKE_TOKEN ? { embeddable: true } : null,
  });
  app.get('/fake-avatar.svg', async (_request, reply) =>
    reply
      .type('image/svg+xml')
      .send(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 160"><rect width="160" height="160" fill="#c7d2fe"/><circle cx="80" cy="64" r="30" fill="#4338ca"/><ellipse cx="80" cy="150" rx="52" ry="44" fill="#4338ca"/></svg>',
      ),
  );
  const authorized = (request: { headers: Record<string, unknown>; query: unknown }) =>
    request.headers['x-room-token'] === FAKE_TOKEN || (request.query as { t?: string }).t === FAKE_TOKEN;

  app.get('/v1/rooms/:id', async (request, reply) => {
    if (!authorized(request)) return reply.status(404).send({ error: { code: 'resource_not_found' } });
    return welcome(`http://${request.host}`);
  });
  app.get('/v1/rooms/:id/transcript', async () => ({ status, end_reason: null, sentences }));
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 50 * 1024 * 1024 }, (_r, body, done) =>
    done(null, body),
  );
  app.put('/v1/rooms/:id/recording', async (request, reply) => {
    uploads.push({
      path: 'recording',
      type: String(request.headers['content-type']),
      size: (request.body as Buffer).length,
      body: request.body as Buffer,
    });
    return reply.status(201).send({ status: 'uploaded', size: (request.body as Buffer).length });
  });
  app.put('/v1/rooms/:id/recording/thumbnail', async (request, reply) => {
    uploads.push({
      path: 'thumbnail',
      type: String(request.headers['content-type']),
      size: (request.body as Buffer).length,
      body: request.body as Buffer,
    });
    return reply.status(201).send({ status: 'uploaded', size: (request.body as Buffer).length });
  });

  app.get('/v1/rooms/:id/live', { websocket: true }, (socket, request) => {
    if (!authorized(request)) {
      socket.close(1008);
      return;
    }
    let turn = 0;
    let audioOutput = false;
    const send = (message: object) => socket.send(JSON.stringify(message));
    const speak = (turnId: string, text: string) => {
      text.split(/(?<=[.!?])\s+/).forEach((sentence, seq) => {
        const pcm = humPcm(sentence);
        send({
          type: 'agent.audio',
          turn_id: turnId,
          seq,
          text: sentence,
          encoding: 'pcm_s16le',
          sample_rate: HUM_RATE,
          bytes: pcm.length,
          start_ms: 0,
        });
        socket.send(pcm);
      });
    };
    const reply = async (text: string, slow = false) => {
      turn += 1;
      const turnId = `t${turn}`;
      if (slow) {
        await new Promise((resolve) => setTimeout(resolve, 1600));
        send({ type: 'filler', turn_id: turnId, text: 'Let me think about that.' });
      }
      for (const word of text.split(/(?<= )/)) {
        send({ type: 'agent.delta', turn_id: turnId, text: word });
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      if (audioOutput) speak(turnId, text);
      send({ type: 'agent.message', turn_id: turnId, text, interrupted: false });
    };
    socket.on('message', async (raw: Buffer, isBinary: boolean) => {
      if (isBinary) {
        voice.frames += 1;
        voice.bytes += raw.length;
        return;
      }
      const message = JSON.parse(raw.toString());
      if (message.type === 'audio.start' || message.type === 'audio.stop') voice.events.push(message.type);
      if (message.type === 'join') {
        push = send;
        audioOutput = message.audio?.output === true;
        status = 'active';
        startedAt ??= new Date();
        send({
          type: 'joined',
          ...welcome(`http://${request.host}`),
          participant: { id: 'p1', name: 'Sam Lee' },
          transcript: [],
          resumed: false,
        });
        await reply(
          "Hi Sam, I'm Elena. Thanks for making the time today. Could you start by telling me about a system you designed recently?",
        );
      } else if (message.type === 'utterance' && message.final) {
        await reply(
          `Interesting. You said "${message.text}". What was the hardest trade-off there?`,
          /slow/i.test(message.text),
        );
      } else if (message.type === 'leave') {
        status = 'ended';
        send({
          type: 'ended',
          reason: 'participant_left',
          ended_at: new Date().toISOString(),
          duration_seconds: 42,
        });
        socket.close(1000);
      } else if (message.type === 'ping') {
        send({ type: 'pong', ts: message.ts, server_time: new Date().toISOString() });
      }
    });
  });

  const address = await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    address,
    uploads,
    voice,
    push: (message: object) => push(message),
    /** A fresh meeting again (after a test that left it). */
    reopen: () => {
      status = 'created';
      startedAt = null;
    },
    roomUrl: `${address}/room/${FAKE_MEETING_ID}?t=${FAKE_TOKEN}`,
    close: () => app.close(),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startFakeRoomServer(Number(process.env.PORT ?? 0));
  console.log(`room: ${server.roomUrl}`);
}
