// Test kit for the live engine: an API caller, a scripted participant speaking the realtime
// protocol (docs/realtime.md) over a real WebSocket, a fake OpenAI-compatible streaming agent, and a
// custom-function receiver that checks signatures with its own HMAC code.
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import WebSocket from 'ws';
import type { PlatformDeps } from '../../src/app/platform-deps.ts';
import { openTestDatabase } from '../../src/core/delivery/testing/test-database.ts';
import {
  type ApiClient,
  type ListeningPlatform,
  ok,
  startListeningPlatform,
  startPlatform,
  type TestCoreOptions,
  type TestPlatform,
} from '../harness.ts';

/**
 * A listening platform on a database of its own (a throwaway database when DATABASE_URL is set):
 * job runners and sweepers in these tests act on everything due, so files must not share rows.
 */
export async function startLivePlatform(
  env: Record<string, string> = {},
  options: Pick<TestCoreOptions, 'speech' | 'liveHub'> = {},
): Promise<ListeningPlatform> {
  const test = await openTestDatabase();
  const platform = await startListeningPlatform({ ...options, database: test.database, env });
  return {
    ...platform,
    async close() {
      await platform.close();
      await test.close();
    },
  };
}

/** The same, not listening (app.inject only). */
export async function startIsolatedPlatform(env: Record<string, string> = {}): Promise<TestPlatform> {
  const test = await openTestDatabase();
  const platform = await startPlatform({ database: test.database, env });
  return {
    ...platform,
    async close() {
      await platform.close();
      await test.close();
    },
  };
}

export interface ScenarioOptions {
  prompt?: string;
  welcome_message?: string;
  call_duration?: number;
  custom_agent_enabled?: boolean;
  custom_agent_config?: Record<string, unknown>;
  session_options?: Record<string, unknown>;
  name?: string;
}

/** A persona and a scenario (with one goal) in the caller's workspace. */
export async function createScenario(api: ApiClient, options: ScenarioOptions = {}) {
  const persona = ok(
    await api.call('POST', '/personas', {
      name: 'Jane Doe',
      job_title: 'Engineering Manager',
      demeanor: 'friendly',
      background: 'Has hired forty engineers.',
      gender: 'female',
    }),
    201,
  );
  const goal = ok(
    await api.call('POST', '/goals', {
      name: 'Explains impact',
      description: 'Talks about results',
      instructions: 'SECRET-GOAL-INSTRUCTIONS score 1 to 10',
    }),
    201,
  );
  const scenario = ok(
    await api.call('POST', '/scenarios', {
      name: options.name ?? 'Backend interview',
      type: 'interview',
      persona_id: persona.id,
      prompt:
        options.prompt ??
        '## Questions\n1. Ask about their background.\n2. Ask about a system they designed.',
      welcome_message: options.welcome_message ?? 'Hi, I am Jane. Shall we begin?',
      call_duration: options.call_duration ?? 30,
      goals: [goal.data?.id ?? goal.id],
      ...(options.custom_agent_enabled !== undefined
        ? { custom_agent_enabled: options.custom_agent_enabled }
        : {}),
      ...(options.custom_agent_config ? { custom_agent_config: options.custom_agent_config } : {}),
      ...(options.session_options ? { session_options: options.session_options } : {}),
    }),
    201,
  );
  return { persona, scenario: scenario.data ?? scenario };
}

/** Every event of a meeting in the order it was queued for delivery (needs a subscribed endpoint). */
export async function subscribeAll(api: ApiClient): Promise<void> {
  ok(
    await api.call('POST', '/webhooks/endpoints', {
      url: 'https://hooks.example.com/in',
      subscribed_events: ['*'],
    }),
    201,
  );
}

export async function eventsOf(
  deps: PlatformDeps,
  meetingId: string,
): Promise<Array<{ event: string; data: any }>> {
  const { rows } = await sql<{ event_type: string; payload: string }>`
    select event_type, payload from deliveries
    where channel = 'platform_webhook' and (payload::jsonb -> 'data' ->> 'meeting_id') = ${meetingId}
    order by seq`.execute(deps.db);
  return rows.map((row) => ({ event: row.event_type, data: JSON.parse(row.payload).data }));
}

// ---- the participant

export type Message = { type: string; [field: string]: any };

/** A program playing the participant over the realtime protocol. */
export class Participant {
  readonly messages: Message[] = [];
  readonly socket: WebSocket;
  #waiters: Array<{ test: (m: Message) => boolean; resolve: (m: Message) => void }> = [];
  #cursor = 0;
  closeCode: number | null = null;

  /** Binary frames received, in order (each `agent.audio` also carries its own as `pcm`). */
  readonly binaryFrames: Buffer[] = [];
  /** An `agent.audio` waiting for the binary frame that must follow it. */
  #audioHeader: Message | null = null;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (raw, isBinary) => {
      if (isBinary) {
        const pcm = Buffer.from(raw as Buffer);
        this.binaryFrames.push(pcm);
        const header = this.#audioHeader;
        this.#audioHeader = null;
        // A binary frame that follows no agent.audio is recorded as such, for tests to catch.
        this.#receive(header ? { ...header, pcm } : { type: 'binary', bytes: pcm.length });
        return;
      }
      const message = JSON.parse(raw.toString()) as Message;
      // The PCM comes in the next frame: the message is handed out with it (or, when something
      // else comes between them, without it: tests then see `pcm` missing).
      if (this.#audioHeader) this.#receive(this.#audioHeader);
      this.#audioHeader = null;
      if (message.type === 'agent.audio') this.#audioHeader = message;
      else this.#receive(message);
    });
    socket.on('close', (code) => {
      this.closeCode = code;
    });
  }

  #receive(message: Message): void {
    this.messages.push(message);
    for (const waiter of [...this.#waiters]) {
      if (waiter.test(message)) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  }

  static connect(baseUrl: string, meetingId: string, token: string): Promise<Participant> {
    const url = `${baseUrl.replace(/^http/, 'ws')}/v1/rooms/${meetingId}/live?t=${encodeURIComponent(token)}`;
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new Participant(socket)));
      socket.once('error', reject);
      socket.once('unexpected-response', (_request, response) =>
        reject(new Error(`upgrade refused with HTTP ${response.statusCode}`)),
      );
    });
  }

  send(message: Record<string, unknown>): void {
    this.socket.send(JSON.stringify(message));
  }

  /** The next message (after those already consumed) matching `type` and `test`. */
  /**
   * The first `type` message since `index` (`messages.length` before a send), whether it came
   * before or after those `next` has consumed since: a reply may overtake the acknowledgement of
   * the words it answers (the reply does not wait for them to be stored).
   */
  firstSince(index: number, type: string, timeoutMs = 15_000): Promise<Message> {
    const found = this.messages.slice(index).find((m) => m.type === type);
    return found ? Promise.resolve(found) : this.next(type, () => true, timeoutMs);
  }

  next(type: string, test: (m: Message) => boolean = () => true, timeoutMs = 15_000): Promise<Message> {
    const match = (m: Message) => m.type === type && test(m);
    for (let i = this.#cursor; i < this.messages.length; i += 1) {
      if (match(this.messages[i]!)) {
        this.#cursor = i + 1;
        return Promise.resolve(this.messages[i]!);
      }
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new Error(
            `no ${type} within ${timeoutMs} ms; got ${JSON.stringify(this.messages.slice(this.#cursor).map((m) => (m.type === 'error' ? m : m.type)))}`,
          ),
        );
      }, timeoutMs);
      this.#waiters.push({
        test: match,
        resolve: (m) => {
          clearTimeout(timer);
          this.#cursor = this.messages.indexOf(m) + 1;
          resolve(m);
        },
      });
    });
  }

  /**
   * A message matching `type` and `test` whenever it came, consumed or not (the cursor stays):
   * for frames whose order against others is not fixed (an acknowledgement racing a reply).
   */
  seen(type: string, test: (m: Message) => boolean = () => true, timeoutMs = 15_000): Promise<Message> {
    const match = (m: Message) => m.type === type && test(m);
    const found = this.messages.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${type} within ${timeoutMs} ms`)), timeoutMs);
      this.#waiters.push({
        test: match,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  async join(extra: Record<string, unknown> = {}): Promise<Message> {
    this.send({
      type: 'join',
      consent: { recording: true },
      recording: true,
      client: { test: true },
      ...extra,
    });
    return this.next('joined');
  }

  /** Says something and waits for the persona's complete answer. */
  async say(text: string, extra: Record<string, unknown> = {}): Promise<Message> {
    this.send({ type: 'utterance', text, final: true, ...extra });
    return this.next('agent.message');
  }

  /** Messages between two indexes, for asserting what one turn produced. */
  since(index: number): Message[] {
    return this.messages.slice(index);
  }

  closed(timeoutMs = 10_000): Promise<number> {
    if (this.closeCode !== null) return Promise.resolve(this.closeCode);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('socket not closed')), timeoutMs);
      this.socket.once('close', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  close(): void {
    this.socket.close();
  }
}

// ---- a fake OpenAI-compatible streaming endpoint

export interface AgentRequest {
  headers: IncomingHttpHeaders;
  body: any;
  path: string;
}

export interface AgentReply {
  /** Delay before the first SSE event (headers are sent at once). */
  firstTokenDelayMs?: number;
  /** Send headers and then nothing at all (a hanging agent). */
  hang?: boolean;
  status?: number;
  text?: string[];
  /** Pause between text chunks (a model that writes as it thinks). */
  chunkDelayMs?: number;
  toolCalls?: Array<{ id: string; name: string; arguments: string }>;
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export interface FakeAgent {
  baseUrl: string;
  requests: AgentRequest[];
  close(): Promise<void>;
}

export async function startFakeAgent(
  reply: (request: AgentRequest, index: number) => AgentReply,
): Promise<FakeAgent> {
  const requests: AgentRequest[] = [];
  const open = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', async () => {
      const request: AgentRequest = {
        headers: req.headers,
        body: raw ? JSON.parse(raw) : null,
        path: req.url ?? '',
      };
      requests.push(request);
      const plan = reply(request, requests.length - 1);
      if (plan.status && plan.status !== 200) {
        res.writeHead(plan.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'scripted failure' } }));
        return;
      }
      if (request.body?.stream !== true) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'this fake only streams' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.flushHeaders();
      open.add(res);
      res.on('close', () => open.delete(res));
      if (plan.hang) return;
      if (plan.firstTokenDelayMs) await new Promise((resolve) => setTimeout(resolve, plan.firstTokenDelayMs));
      const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: request.body.model, choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`;
      for (const [index, text] of (plan.text ?? []).entries()) {
        if (index > 0 && plan.chunkDelayMs)
          await new Promise((resolve) => setTimeout(resolve, plan.chunkDelayMs));
        res.write(chunk({ content: text }));
      }
      (plan.toolCalls ?? []).forEach((call, index) => {
        const half = Math.floor(call.arguments.length / 2);
        res.write(
          chunk({
            tool_calls: [
              {
                index,
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: call.arguments.slice(0, half) },
              },
            ],
          }),
        );
        res.write(chunk({ tool_calls: [{ index, function: { arguments: call.arguments.slice(half) } }] }));
      });
      if (plan.usage) {
        res.write(
          `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [], usage: { ...plan.usage, total_tokens: plan.usage.prompt_tokens + plan.usage.completion_tokens } })}\n\n`,
        );
      }
      res.write('data: [DONE]\n\n');
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    async close() {
      for (const res of open) res.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

// ---- a custom-function receiver

export interface FunctionReceiver {
  url: string;
  calls: Array<{ body: any; signatureValid: boolean }>;
  close(): Promise<void>;
}

/**
 * Verifies `X-Service-Signature: sha256=<hex>` with its own HMAC-SHA256 over the raw body (not
 * the service's helper), answers 401 on a bad signature and `answer(arguments)` otherwise.
 */
export async function startFunctionReceiver(
  secret: string,
  answer: (args: any) => { status?: number; body: string; delayMs?: number },
): Promise<FunctionReceiver> {
  const calls: FunctionReceiver['calls'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      const header = String(req.headers['x-service-signature'] ?? '');
      const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
      const given = Buffer.from(header);
      const signatureValid = given.length === expected.length && timingSafeEqual(given, expected);
      const body = JSON.parse(raw.toString('utf8'));
      calls.push({ body, signatureValid });
      if (!signatureValid) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end('{"error":"invalid signature"}');
        return;
      }
      const reply = answer(body.data?.arguments);
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/functions/lookup`,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Creates a meeting and returns its create response data. */
export async function createMeeting(api: ApiClient, scenarioId: string, extra: Record<string, unknown> = {}) {
  const created = ok(
    await api.call('POST', '/meetings', { scenario_id: scenarioId, person_name: 'Sam Lee', ...extra }),
    201,
  );
  assert.equal(created.success, true);
  assert.equal(created.data.status, 'created');
  return created.data as { id: string; room_token: string; room_meeting_url: string; meeting_url: string };
}

/** Uploads a small fake webm and a thumbnail through the room API. */
export async function uploadRecording(t: ListeningPlatform, meetingId: string, token: string) {
  const media = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(4096, 7)]);
  const thumbnail = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  const put = (path: string, body: Buffer, type: string) =>
    fetch(`${t.baseUrl}/v1/rooms/${meetingId}${path}?t=${encodeURIComponent(token)}`, {
      method: 'PUT',
      headers: { 'content-type': type },
      body: new Uint8Array(body),
    });
  const mediaResponse = await put('/recording', media, 'video/webm;codecs=vp8,opus');
  assert.equal(mediaResponse.status, 201, await mediaResponse.clone().text());
  const thumbResponse = await put('/recording/thumbnail', thumbnail, 'image/png');
  assert.equal(thumbResponse.status, 201, await thumbResponse.clone().text());
  return { media, thumbnail };
}
