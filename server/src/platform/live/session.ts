// One live meeting held by this process: its conversation, its current turn, its socket. The
// persona's replies stream from a ReplyProvider; each final utterance of the participant starts a
// turn, a newer one interrupts it (barge-in), and tool calls run between provider rounds. The
// participant is never left in silence: fillers while the provider is slow, the offline engine or
// an apology when it fails (fallback.ts), and an idle call ends after the scenario's
// idle_timeout_seconds. Sentences are written in order through one chain per meeting, so the
// transcript's sequence numbers follow what was said.
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
import { APOLOGY_TEXTS, FILLER_TEXTS } from './fallback.ts';
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
import { liveRepository, type UsageIncrement } from './repository.ts';
import type { SentenceProvider, Speaker } from './tables.ts';
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
  /** Then another filler this often while nothing has been said yet… */
  fillerIntervalMs: number;
  /** …at most this many per turn. */
  maxFillersPerTurn: number;
  /** How often the session checks whether the call has been idle for idle_timeout_seconds. */
  idleCheckMs: number;
  /** A dropped socket not resumed within this ends the meeting. */
  reconnectGraceMs: number;
  /** Called once the session is over (ended or handed to another connection elsewhere). */
  onClosed(session: LiveSession): void;
}

export interface SessionSetup {
  context: MeetingContext;
  provider: ReplyProvider;
  /** Answers a turn the provider could not (after its retry), when the scenario allows it. */
  standIn: ReplyProvider | null;
  tools: ToolSpec[];
  systemPrompt: string;
  welcomeMessage: string;
  participant: { id: string; name: string | null };
}

/** Tool rounds per turn: a model calling tools in a loop is cut off here. */
const MAX_TOOL_ROUNDS = 4;
const UTTERANCES_PER_SECOND = 20;
/** idle_timeout_seconds when the scenario's meeting controls do not say. */
const DEFAULT_IDLE_TIMEOUT_SECONDS = 300;

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
  /** Who is speaking this turn: the provider being asked, a stand-in, or the apology. */
  answeredBy: SentenceProvider;
  fillers: number;
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
  #usage: UsageIncrement = emptyUsage();
  /** Fillers and apologies said so far: each picks the next text, so the persona does not repeat itself. */
  #fillersSaid = 0;
  #apologiesSaid = 0;
  /** Clock time of the last sign of life: a participant utterance or join, or the end of a persona turn. */
  #lastActivityAt: number;
  #idleTimer: NodeJS.Timeout | undefined;

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
    this.#lastActivityAt = deps.clock.now().getTime();
    this.#idleTimer = setInterval(() => this.checkIdle(), deps.idleCheckMs);
    this.#idleTimer.unref?.();
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
    this.#lastActivityAt = this.#deps.clock.now().getTime();
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
    this.#startTurn([welcome], [], 'welcome');
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
    this.#lastActivityAt = this.#deps.clock.now().getTime();
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
    this.#store('user', text, startMs, endMs ?? null, null, message.id, message.input);
    const { provider, standIn } = this.#setup;
    this.#startTurn(standIn ? [provider, standIn] : [provider], this.#setup.tools);
  }

  /**
   * Ends the call when nobody has said anything for the scenario's idle_timeout_seconds (measured
   * on the injected clock; checked every idleCheckMs, and callable directly). Never while the
   * persona is still answering. True when it ended the call.
   */
  checkIdle(): boolean {
    if (this.#closed || this.#ending) return false;
    if (this.#turn && !this.#turn.finished) return false;
    const seconds =
      this.#setup.context.scenario.meeting_controls.idle_timeout_seconds ?? DEFAULT_IDLE_TIMEOUT_SECONDS;
    if (this.#deps.clock.now().getTime() - this.#lastActivityAt < seconds * 1000) return false;
    void this.end('idle_timeout');
    return true;
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

  /**
   * Starts a turn answered by the first of `providers` that manages to (the meeting's provider,
   * then its stand-in); when every one fails, the persona apologises. `speaker` overrides what is
   * recorded as having spoken (the welcome).
   */
  #startTurn(providers: ReplyProvider[], tools: ToolSpec[], speaker?: SentenceProvider): void {
    const turn: Turn = {
      id: randomUUID(),
      controller: new AbortController(),
      text: '',
      unpushed: '',
      startMs: null,
      output: false,
      finished: false,
      answeredBy: speaker ?? providers[0]!.kind,
      fillers: 0,
      fillerTimer: undefined,
      pendingCalls: new Map(),
    };
    this.#turn = turn;
    this.#scheduleFiller(turn, this.#deps.fillerDelayMs);
    void this.#runTurn(turn, providers, tools, speaker).catch((error) => {
      this.#deps.logger.error({ err: error, meeting_id: this.meetingId }, 'turn failed unexpectedly');
    });
  }

  /** A filler after `delay` while the persona has said nothing yet, then every interval up to the cap. */
  #scheduleFiller(turn: Turn, delay: number): void {
    turn.fillerTimer = setTimeout(() => {
      if (turn.finished || turn.text !== '' || turn.fillers >= this.#deps.maxFillersPerTurn) return;
      const text = FILLER_TEXTS[this.#fillersSaid % FILLER_TEXTS.length]!;
      this.#fillersSaid += 1;
      turn.fillers += 1;
      this.send({ type: 'filler', turn_id: turn.id, text });
      if (turn.fillers < this.#deps.maxFillersPerTurn)
        this.#scheduleFiller(turn, this.#deps.fillerIntervalMs);
    }, delay);
    turn.fillerTimer.unref?.();
  }

  async #runTurn(
    turn: Turn,
    providers: ReplyProvider[],
    tools: ToolSpec[],
    speaker?: SentenceProvider,
  ): Promise<void> {
    const { signal } = turn.controller;
    let endReason: EndReason | null = null;
    let answered = false;
    for (const [index, provider] of providers.entries()) {
      turn.answeredBy = speaker ?? provider.kind;
      // A stand-in answers this one turn only: it does not end the meeting on the provider's behalf.
      const offered = index === 0 ? tools : [];
      try {
        endReason = await this.#rounds(turn, provider, offered);
        answered = true;
        break;
      } catch (error) {
        if (signal.aborted) return;
        this.#deps.logger.warn(
          { err: error, meeting_id: this.meetingId, provider: provider.kind },
          providers[index + 1] ? 'reply provider failed; the next one answers' : 'reply provider failed',
        );
        // Words already spoken cannot be taken back: the turn ends with them.
        if (turn.text !== '') {
          answered = true;
          break;
        }
      }
    }
    if (signal.aborted) return;
    if (!answered) this.#apologise(turn);
    clearTimeout(turn.fillerTimer);
    this.#finishTurn(turn, false);
    this.#usage.turns += 1;
    if (turn.answeredBy !== 'welcome') this.#usage.answered[turn.answeredBy] += 1;
    if (endReason) await this.end(endReason);
  }

  /** Up to MAX_TOOL_ROUNDS provider rounds with the tool calls between them; the end reason if one ended the call. */
  async #rounds(turn: Turn, provider: ReplyProvider, tools: ToolSpec[]): Promise<EndReason | null> {
    const { signal } = turn.controller;
    let endReason: EndReason | null = null;
    for (let round = 0; round < MAX_TOOL_ROUNDS && !endReason; round += 1) {
      const calls: ToolCall[] = [];
      for await (const event of provider.reply({ messages: [...this.#messages], tools, signal })) {
        if (signal.aborted) break;
        if (event.type === 'delta') {
          if (!event.text) continue;
          this.#speak(turn, event.text);
        } else if (event.type === 'tool_call') {
          calls.push(event.call);
        } else if (provider.kind === 'llm') {
          this.#usage.promptTokens += event.promptTokens;
          this.#usage.completionTokens += event.completionTokens;
        }
      }
      if (signal.aborted || calls.length === 0) break;
      this.#markOutput(turn);
      this.#messages.push({ role: 'assistant', content: turn.unpushed || null, tool_calls: calls });
      turn.unpushed = '';
      for (const call of calls) turn.pendingCalls.set(call.id, call.function.name);
      for (const call of calls) {
        if (signal.aborted) return null;
        const content = await this.#runTool(turn, call, (reason) => {
          endReason = reason;
        });
        if (signal.aborted || !turn.pendingCalls.has(call.id)) return null;
        turn.pendingCalls.delete(call.id);
        this.#messages.push({ role: 'tool', tool_call_id: call.id, name: call.function.name, content });
      }
    }
    return endReason;
  }

  #speak(turn: Turn, text: string): void {
    this.#markOutput(turn);
    clearTimeout(turn.fillerTimer);
    turn.text += text;
    turn.unpushed += text;
    this.send({ type: 'agent.delta', turn_id: turn.id, text });
  }

  /**
   * Every provider failed: the room is told (`agent_unavailable`) and the persona says a short
   * apology, so the participant hears why nothing came; their next utterance asks the provider again.
   */
  #apologise(turn: Turn): void {
    this.error('agent_unavailable', 'The agent could not answer. Say something to try again.');
    turn.answeredBy = 'apology';
    const text = APOLOGY_TEXTS[this.#apologiesSaid % APOLOGY_TEXTS.length]!;
    this.#apologiesSaid += 1;
    for (const chunk of chunkText(text)) this.#speak(turn, chunk);
  }

  #markOutput(turn: Turn): void {
    if (turn.output) return;
    turn.output = true;
    turn.startMs = this.#elapsedMs();
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
    clearTimeout(turn.fillerTimer);
    this.#lastActivityAt = this.#deps.clock.now().getTime();
    if (this.#turn === turn) this.#turn = null;
    if (turn.unpushed) this.#messages.push({ role: 'assistant', content: turn.unpushed });
    turn.unpushed = '';
    const text = turn.text.trim();
    if (text === '') return;
    this.send({ type: 'agent.message', turn_id: turn.id, text: turn.text, interrupted });
    this.#store('agent', text, turn.startMs ?? this.#elapsedMs(), this.#elapsedMs(), turn.answeredBy);
    // Model tokens are written at every turn (they are billed); the turn count waits for the end.
    if (this.#usage.promptTokens > 0 || this.#usage.completionTokens > 0) this.#flushUsage();
  }

  // ---- storage

  #store(
    speaker: Speaker,
    message: string,
    startMs: number,
    endMs: number | null,
    provider: SentenceProvider | null,
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
          provider,
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
    this.#usage = emptyUsage();
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
    clearInterval(this.#idleTimer);
    this.#deps.onClosed(this);
  }
}

function emptyUsage(): UsageIncrement {
  return {
    promptTokens: 0,
    completionTokens: 0,
    turns: 0,
    answered: { custom_agent: 0, llm: 0, offline: 0, apology: 0 },
  };
}

function sendTo(socket: RoomSocket, message: ServerMessage): void {
  if (socket.open) socket.send(JSON.stringify(message));
}
