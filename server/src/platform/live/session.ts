// One live meeting held by this process: its conversation, its current turn, its socket. The
// persona's replies stream from a ReplyProvider; each final utterance of the participant starts a
// turn, a newer one interrupts it (barge-in), and tool calls run between provider rounds.
// Sentences are written in order through one chain per meeting, so the transcript's sequence
// numbers follow what was said.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import { loadCustomFunctionsForCall } from '../custom-functions/queries.ts';
import type { MeetingLifecycle } from '../meetings/lifecycle.ts';
import { type RenderedSentence, renderSentence } from '../meetings/render.ts';
import type { EndReason } from '../meetings/schemas.ts';
import type { MeetingContext } from './context.ts';
import { callCustomFunction, type FunctionCaller } from './function-call.ts';
import {
  CLOSE,
  type RoomErrorCode,
  type ServerMessage,
  type ToolStatus,
  type UtteranceMessage,
} from './protocol.ts';
import { chunkText } from './providers/offline-script/index.ts';
import type { ChatMessage, ReplyProvider, ToolCall, ToolSpec } from './providers/types.ts';
import { liveRepository } from './repository.ts';
import type { Speaker } from './tables.ts';
import { END_CALL, endReasonOf, WEB_SEARCH } from './tools.ts';
import type { WebSearch } from './web-search.ts';

/** What the session writes to: a WebSocket, or anything that behaves like one (benchmarks). */
export interface RoomSocket {
  send(text: string): void;
  close(code: number, reason: string): void;
  readonly open: boolean;
}

export interface SessionDeps {
  db: Kysely<DB>;
  clock: Clock;
  secretBox: SecretBox;
  logger: Logger;
  lifecycle: MeetingLifecycle;
  functionCaller: FunctionCaller;
  webSearch: WebSearch | null;
  /** First token later than this: a `filler` notice. */
  fillerDelayMs: number;
  /** A dropped socket not resumed within this ends the meeting. */
  reconnectGraceMs: number;
  /** Called once the session is over (ended or handed to another connection elsewhere). */
  onClosed(session: LiveSession): void;
}

export interface SessionSetup {
  context: MeetingContext;
  provider: ReplyProvider;
  tools: ToolSpec[];
  systemPrompt: string;
  welcomeMessage: string;
  participant: { id: string; name: string | null };
}

/** Tool rounds per turn: a model calling tools in a loop is cut off here. */
const MAX_TOOL_ROUNDS = 4;
const FILLER_TEXT = 'Let me think about that for a moment.';
const UTTERANCES_PER_SECOND = 20;

interface Turn {
  id: string;
  controller: AbortController;
  /** Everything said in this turn so far. */
  text: string;
  /** Text not yet added to the conversation as an assistant message. */
  unpushed: string;
  startMs: number | null;
  output: boolean;
  finished: boolean;
  fillerTimer: NodeJS.Timeout | undefined;
  /** Tool calls added to the conversation that still lack their result message. */
  pendingCalls: Map<string, string>;
}

export class LiveSession {
  readonly meetingId: string;
  readonly accountId: string;
  readonly scenarioId: string;
  #socket: RoomSocket | null = null;
  readonly #deps: SessionDeps;
  readonly #setup: SessionSetup;
  readonly #messages: ChatMessage[];
  readonly #startedAt: number;
  #transcriptId: number;
  #turn: Turn | null = null;
  #writes: Promise<unknown> = Promise.resolve();
  #closed = false;
  #ending: Promise<void> | null = null;
  #deadlineTimer: NodeJS.Timeout | undefined;
  #graceTimer: NodeJS.Timeout | undefined;
  #recent: number[] = [];
  #usage = { promptTokens: 0, completionTokens: 0, turns: 0 };

  constructor(deps: SessionDeps, setup: SessionSetup, history: RenderedSentence[], transcriptId: number) {
    this.#deps = deps;
    this.#setup = setup;
    const { meeting } = setup.context;
    this.meetingId = meeting.id;
    this.accountId = meeting.account_id;
    this.scenarioId = meeting.scenario_id;
    this.#startedAt = new Date(meeting.started_at ?? deps.clock.now()).getTime();
    this.#transcriptId = transcriptId;
    this.#messages = [
      { role: 'system', content: setup.systemPrompt },
      ...history.map(
        (sentence): ChatMessage => ({
          role: sentence.speaker === 'agent' ? 'assistant' : 'user',
          content: sentence.message,
        }),
      ),
    ];
    if (meeting.deadline_at) {
      const delay = new Date(meeting.deadline_at).getTime() - deps.clock.now().getTime();
      this.#deadlineTimer = setTimeout(
        () => void this.end('duration_limit'),
        Math.max(0, Math.min(delay, 2 ** 31 - 1)),
      );
      this.#deadlineTimer.unref?.();
    }
  }

  get connected(): boolean {
    return this.#socket !== null;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The scenario and persona as they were when the session opened (they do not change mid-call). */
  get context(): MeetingContext {
    return this.#setup.context;
  }

  /** The conversation as the provider sees it (for tests and diagnostics). */
  get conversation(): readonly ChatMessage[] {
    return this.#messages;
  }

  /** Resolves once every sentence and usage write queued so far has settled. */
  settled(): Promise<void> {
    return this.#writes.then(
      () => {},
      () => {},
    );
  }

  /** A (new) connection takes over the meeting; an older one on this process is replaced. */
  attach(socket: RoomSocket): void {
    clearTimeout(this.#graceTimer);
    const previous = this.#socket;
    this.#socket = socket;
    if (previous && previous !== socket) {
      sendTo(previous, {
        type: 'error',
        code: 'replaced',
        message: 'The meeting was joined from another connection.',
        fatal: true,
      });
      previous.close(CLOSE.replaced, 'replaced');
    }
  }

  /** The socket went away without `leave`: keep the meeting for the grace period. */
  detach(socket: RoomSocket): void {
    if (this.#socket !== socket || this.#closed) return;
    this.#socket = null;
    this.#graceTimer = setTimeout(() => void this.end('participant_left'), this.#deps.reconnectGraceMs);
    this.#graceTimer.unref?.();
  }

  /** The persona opens the call with the welcome message (only when nothing was said yet). */
  startIfNew(): void {
    if (this.#messages.some((message) => message.role === 'assistant')) return;
    const words = chunkText(this.#setup.welcomeMessage);
    const welcome: ReplyProvider = {
      kind: 'offline',
      async *reply() {
        for (const text of words) yield { type: 'delta', text };
      },
    };
    this.#startTurn(welcome, []);
  }

  send(message: ServerMessage): void {
    if (this.#socket) sendTo(this.#socket, message);
  }

  error(code: RoomErrorCode, message: string, fatal = false): void {
    this.send({ type: 'error', code, message, fatal });
  }

  /** A participant utterance. Interim ones only interrupt; final ones are stored and answered. */
  utterance(message: UtteranceMessage): void {
    if (this.#closed || this.#ending) return;
    if (!message.final) {
      if (this.#turn?.output) this.#interrupt();
      return;
    }
    const now = performance.now();
    this.#recent = this.#recent.filter((at) => now - at < 1000);
    if (this.#recent.length >= UTTERANCES_PER_SECOND) {
      this.error('rate_limited', `At most ${UTTERANCES_PER_SECOND} final utterances per second.`);
      return;
    }
    this.#recent.push(now);
    const elapsed = this.#elapsedMs();
    const plausible = (value: number | undefined) =>
      value !== undefined && value >= 0 && value <= elapsed + 5_000 ? value : undefined;
    const startMs = plausible(message.start_ms) ?? elapsed;
    const endMs = plausible(message.end_ms);
    const text = message.text.trim();
    this.#interrupt();
    this.#messages.push({ role: 'user', content: text });
    this.#store('user', text, startMs, endMs ?? null, message.id, message.input);
    this.#startTurn(this.#setup.provider, this.#setup.tools);
  }

  /**
   * Ends the meeting from here (leave, end_call, the duration limit, a lost connection): what was
   * said is written first, so the transcript is complete when the finalisation job reads it.
   */
  end(reason: EndReason): Promise<void> {
    if (this.#ending) return this.#ending;
    this.#ending = (async () => {
      this.#interrupt();
      await this.#writes.catch(() => {});
      try {
        const result = await this.#deps.lifecycle.end(this.meetingId, reason);
        const row = result.meeting;
        this.#finish((row.end_reason as EndReason | null) ?? reason, row.ended_at, row.duration_seconds);
      } catch (error) {
        this.#deps.logger.error({ err: error, meeting_id: this.meetingId }, 'meeting could not be ended');
        this.error('internal_error', 'The meeting could not be ended cleanly.', true);
        this.#finish(reason, null, null, CLOSE.internal);
      }
    })();
    return this.#ending;
  }

  /** The meeting was ended elsewhere (PUT /end, the sweeper, another instance). */
  async endedElsewhere(reason: EndReason): Promise<void> {
    if (this.#closed || this.#ending) return;
    this.#interrupt();
    await this.#writes.catch(() => {});
    const row = await liveRepository.endState(this.#deps.db, this.meetingId);
    this.#finish(
      (row?.end_reason as EndReason | null) ?? reason,
      row?.ended_at ?? null,
      row?.duration_seconds ?? null,
    );
  }

  /** This process is shutting down: close as "going away" (the room reconnects elsewhere); the meeting goes on. */
  shutdown(): void {
    if (this.#closed) return;
    this.#interrupt();
    this.#socket?.close(CLOSE.goingAway, 'server shutting down');
    this.#dispose();
  }

  /** The participant joined through another instance: drop this copy without ending the meeting. */
  handOver(): void {
    if (this.#closed) return;
    this.#interrupt();
    if (this.#socket) {
      sendTo(this.#socket, {
        type: 'error',
        code: 'replaced',
        message: 'The meeting was joined from another connection.',
        fatal: true,
      });
      this.#socket.close(CLOSE.replaced, 'replaced');
    }
    this.#dispose();
  }

  // ---- turns

  #startTurn(provider: ReplyProvider, tools: ToolSpec[]): void {
    const turn: Turn = {
      id: randomUUID(),
      controller: new AbortController(),
      text: '',
      unpushed: '',
      startMs: null,
      output: false,
      finished: false,
      fillerTimer: undefined,
      pendingCalls: new Map(),
    };
    this.#turn = turn;
    turn.fillerTimer = setTimeout(() => {
      if (!turn.output && !turn.finished) this.send({ type: 'filler', turn_id: turn.id, text: FILLER_TEXT });
    }, this.#deps.fillerDelayMs);
    turn.fillerTimer.unref?.();
    void this.#runTurn(turn, provider, tools).catch((error) => {
      this.#deps.logger.error({ err: error, meeting_id: this.meetingId }, 'turn failed unexpectedly');
    });
  }

  async #runTurn(turn: Turn, provider: ReplyProvider, tools: ToolSpec[]): Promise<void> {
    const { signal } = turn.controller;
    let endReason: EndReason | null = null;
    try {
      for (let round = 0; round < MAX_TOOL_ROUNDS && !endReason; round += 1) {
        const calls: ToolCall[] = [];
        for await (const event of provider.reply({ messages: [...this.#messages], tools, signal })) {
          if (signal.aborted) break;
          if (event.type === 'delta') {
            if (!event.text) continue;
            this.#markOutput(turn);
            turn.text += event.text;
            turn.unpushed += event.text;
            this.send({ type: 'agent.delta', turn_id: turn.id, text: event.text });
          } else if (event.type === 'tool_call') {
            calls.push(event.call);
          } else if (provider.kind === 'llm') {
            this.#usage.promptTokens += event.promptTokens;
            this.#usage.completionTokens += event.completionTokens;
          }
        }
        if (signal.aborted) return;
        if (calls.length === 0) break;
        this.#markOutput(turn);
        this.#messages.push({ role: 'assistant', content: turn.unpushed || null, tool_calls: calls });
        turn.unpushed = '';
        for (const call of calls) turn.pendingCalls.set(call.id, call.function.name);
        for (const call of calls) {
          if (signal.aborted) return;
          const content = await this.#runTool(turn, call, (reason) => {
            endReason = reason;
          });
          if (signal.aborted || !turn.pendingCalls.has(call.id)) return;
          turn.pendingCalls.delete(call.id);
          this.#messages.push({ role: 'tool', tool_call_id: call.id, name: call.function.name, content });
        }
      }
    } catch (error) {
      if (signal.aborted) return;
      this.#deps.logger.warn(
        { err: error, meeting_id: this.meetingId, provider: provider.kind },
        'reply provider failed',
      );
      this.error('agent_unavailable', 'The agent could not answer. Say something to try again.');
    } finally {
      clearTimeout(turn.fillerTimer);
    }
    if (signal.aborted) return;
    this.#finishTurn(turn, false);
    this.#usage.turns += 1;
    if (endReason) await this.end(endReason);
  }

  #markOutput(turn: Turn): void {
    if (turn.output) return;
    turn.output = true;
    turn.startMs = this.#elapsedMs();
    clearTimeout(turn.fillerTimer);
  }

  async #runTool(turn: Turn, call: ToolCall, onEnd: (reason: EndReason) => void): Promise<string> {
    const name = call.function.name;
    const status = (value: ToolStatus) =>
      this.send({ type: 'tool', turn_id: turn.id, call_id: call.id, name, status: value });
    status('started');
    if (name === END_CALL) {
      onEnd(endReasonOf(call.function.arguments));
      status('completed');
      return JSON.stringify({ ok: true, message: 'The call ends after this turn.' });
    }
    if (name === WEB_SEARCH && this.#deps.webSearch) {
      try {
        const { query } = JSON.parse(call.function.arguments || '{}') as { query?: unknown };
        if (typeof query !== 'string' || query.trim() === '') throw new Error('query is required');
        const results = await this.#deps.webSearch.search(query, turn.controller.signal);
        status('completed');
        return JSON.stringify({ results });
      } catch (error) {
        this.#deps.logger.warn({ err: error, meeting_id: this.meetingId }, 'web_search failed');
        status('failed');
        return JSON.stringify({ error: { type: 'search_failed', message: (error as Error).message } });
      }
    }
    const functions = await loadCustomFunctionsForCall(
      this.#deps.db,
      this.#deps.secretBox,
      this.accountId,
      this.scenarioId,
    ).catch((error) => {
      this.#deps.logger.warn(
        { err: error, meeting_id: this.meetingId },
        'custom functions could not be loaded',
      );
      return [];
    });
    const fn = functions.find((candidate) => candidate.name === name);
    if (!fn) {
      status('failed');
      return JSON.stringify({
        error: { type: 'unknown_tool', message: `No tool named ${name} is available.` },
      });
    }
    const outcome = await callCustomFunction(
      this.#deps.functionCaller,
      this.#deps.clock,
      fn,
      call.function.arguments,
      { meetingId: this.meetingId, scenarioId: this.scenarioId, toolCallId: call.id },
      turn.controller.signal,
    );
    if (!outcome.ok) {
      this.#deps.logger.warn(
        { meeting_id: this.meetingId, function: fn.name, status: outcome.status, error: outcome.error },
        'custom function call failed; the model gets an error result',
      );
    }
    status(outcome.ok ? 'completed' : 'failed');
    return outcome.content;
  }

  /** Cuts the current turn (barge-in, end): what was said stays, marked interrupted. */
  #interrupt(): void {
    const turn = this.#turn;
    if (!turn || turn.finished) return;
    turn.controller.abort();
    clearTimeout(turn.fillerTimer);
    // Every tool call in the conversation needs its result before the next user message.
    for (const [id, name] of turn.pendingCalls) {
      this.#messages.push({
        role: 'tool',
        tool_call_id: id,
        name,
        content: JSON.stringify({ error: { type: 'interrupted', message: 'The participant interrupted.' } }),
      });
    }
    turn.pendingCalls.clear();
    this.#finishTurn(turn, true);
  }

  #finishTurn(turn: Turn, interrupted: boolean): void {
    if (turn.finished) return;
    turn.finished = true;
    if (this.#turn === turn) this.#turn = null;
    if (turn.unpushed) this.#messages.push({ role: 'assistant', content: turn.unpushed });
    turn.unpushed = '';
    const text = turn.text.trim();
    if (text === '') return;
    this.send({ type: 'agent.message', turn_id: turn.id, text: turn.text, interrupted });
    this.#store('agent', text, turn.startMs ?? this.#elapsedMs(), this.#elapsedMs());
    // Model tokens are written at every turn (they are billed); the turn count waits for the end.
    if (this.#usage.promptTokens > 0 || this.#usage.completionTokens > 0) this.#flushUsage();
  }

  // ---- storage

  #store(
    speaker: Speaker,
    message: string,
    startMs: number,
    endMs: number | null,
    clientId?: string,
    input?: 'voice' | 'typed',
  ): void {
    const now = this.#deps.clock.now();
    const transcriptId = this.#transcriptId;
    this.#writes = this.#writes
      .then(() =>
        liveRepository.appendSentence(this.#deps.db, {
          transcriptId,
          meetingId: this.meetingId,
          accountId: this.accountId,
          speaker,
          message,
          startMs,
          endMs,
          input: input ?? null,
          now,
        }),
      )
      .then((row) => {
        if (!row) return;
        this.send({
          type: 'transcript.sentence',
          sentence: renderSentence(row),
          ...(clientId ? { client_id: clientId } : {}),
        });
      })
      .catch((error) => {
        this.#deps.logger.error({ err: error, meeting_id: this.meetingId }, 'sentence could not be stored');
      });
  }

  #flushUsage(): void {
    const usage = this.#usage;
    this.#usage = { promptTokens: 0, completionTokens: 0, turns: 0 };
    this.#writes = this.#writes
      .then(() => liveRepository.addUsage(this.#deps.db, this.meetingId, usage, this.#deps.clock.now()))
      .catch((error) =>
        this.#deps.logger.warn({ err: error, meeting_id: this.meetingId }, 'usage not recorded'),
      );
  }

  #elapsedMs(): number {
    return Math.max(0, this.#deps.clock.now().getTime() - this.#startedAt);
  }

  #finish(
    reason: EndReason,
    endedAt: Date | null,
    durationSeconds: number | null,
    code: number = CLOSE.normal,
  ): void {
    if (this.#closed) return;
    const socket = this.#socket;
    if (socket) {
      sendTo(socket, {
        type: 'ended',
        reason,
        ended_at: new Date(endedAt ?? this.#deps.clock.now()).toISOString(),
        duration_seconds: durationSeconds ?? 0,
      });
      socket.close(code, reason);
    }
    this.#dispose();
  }

  #dispose(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#usage.turns > 0 || this.#usage.promptTokens > 0) this.#flushUsage();
    this.#socket = null;
    clearTimeout(this.#deadlineTimer);
    clearTimeout(this.#graceTimer);
    this.#deps.onClosed(this);
  }
}

function sendTo(socket: RoomSocket, message: ServerMessage): void {
  if (socket.open) socket.send(JSON.stringify(message));
}
