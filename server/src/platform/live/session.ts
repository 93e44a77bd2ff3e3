// One live meeting held by this process: its socket, its conversation (conversation.ts) and how it
// ends. Each final utterance of the participant is answered, a newer one interrupts the persona
// (barge-in). The participant is never left in silence: fillers while the provider is slow, the
// offline engine or an apology when it fails (fallback.ts), and an idle call ends after the
// scenario's idle_timeout_seconds. Voice (voice/) belongs to the connection: the microphone feeds
// final utterances in, and with audio output on a turn lasts until its audio has played. When the
// process shuts down, the session hands the meeting over: no new words are taken, the reply in
// flight finishes (or is cut), what was said is stored, and the room is told to resume elsewhere.
import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import type { MeetingLifecycle } from '../meetings/lifecycle.ts';
import type { EndReason } from '../meetings/schemas.ts';
import type { SpeechEngines } from '../speech/types.ts';
import type { MeetingContext } from './context.ts';
import { Conversation, type HistorySentence } from './conversation.ts';
import type { FunctionCaller } from './function-call.ts';
import {
  type AudioStartMessage,
  CLOSE,
  type RoomErrorCode,
  type ServerMessage,
  type UtteranceMessage,
} from './protocol.ts';
import type { ChatMessage, ReplyProvider, ToolSpec } from './providers/types.ts';
import { liveRepository } from './repository.ts';
import { TranscriptWriter } from './transcript-writer.ts';
import { ConnectionVoice } from './voice/connection-voice.ts';
import { PersonaEcho } from './voice/persona-echo.ts';
import type { EndOfTurn, SegmenterFactory } from './voice/voice-input.ts';
import type { WebSearch } from './web-search.ts';

/** What the session writes to: a WebSocket, or anything that behaves like one (benchmarks). */
export interface RoomSocket {
  send(text: string): void;
  /** A binary frame (the persona's audio), in order with the text frames. */
  sendBinary(data: Buffer): void;
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
  /** The recogniser and synthesiser (either may be null: that direction is not offered). */
  speech: SpeechEngines;
  /** Silence that ends a spoken utterance (the segmenter's default when absent). */
  voiceEndSilenceMs?: number;
  /** Whether that silence adapts to the words and the voice (voice/turn-end.ts; adaptive when absent). */
  voiceEndOfTurn?: EndOfTurn;
  /** The microphone streams' voice-activity segmenter (the WebRTC VAD when absent). */
  createSegmenter?: SegmenterFactory;
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
  /** On shutdown, how long the reply in flight may take to finish before it is cut. */
  handoverReplyMs: number;
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

const UTTERANCES_PER_SECOND = 20;
/** idle_timeout_seconds when the scenario's meeting controls do not say. */
const DEFAULT_IDLE_TIMEOUT_SECONDS = 300;
/** Room-given times this far past the server's clock are not believed. */
const CLOCK_SLACK_MS = 5_000;

export class LiveSession {
  readonly meetingId: string;
  readonly accountId: string;
  readonly scenarioId: string;
  #socket: RoomSocket | null = null;
  #voice: ConnectionVoice | null = null;
  /** What the persona said lately, so its echo in the microphone is not taken for the participant. */
  readonly #echo = new PersonaEcho();
  readonly #deps: SessionDeps;
  readonly #setup: SessionSetup;
  readonly #startedAt: number;
  readonly #transcript: TranscriptWriter;
  readonly #conversation: Conversation;
  #closed = false;
  #ending: Promise<void> | null = null;
  /** Shutting down: no new words are taken (the room resends them to the instance it resumes on). */
  #handingOver = false;
  #handOff: Promise<void> | null = null;
  #deadlineTimer: NodeJS.Timeout | undefined;
  #graceTimer: NodeJS.Timeout | undefined;
  #recent: number[] = [];
  /** Clock time of the last sign of life: a participant utterance or join, or the end of a persona turn. */
  #lastActivityAt: number;
  #idleTimer: NodeJS.Timeout | undefined;

  constructor(deps: SessionDeps, setup: SessionSetup, history: HistorySentence[], transcriptId: number) {
    this.#deps = deps;
    this.#setup = setup;
    const { meeting } = setup.context;
    this.meetingId = meeting.id;
    this.accountId = meeting.account_id;
    this.scenarioId = meeting.scenario_id;
    this.#startedAt = new Date(meeting.started_at ?? deps.clock.now()).getTime();
    this.#transcript = new TranscriptWriter(
      deps,
      { meetingId: this.meetingId, accountId: this.accountId, transcriptId },
      (message) => this.send(message),
    );
    this.#conversation = new Conversation(
      deps,
      {
        meeting: { meetingId: this.meetingId, accountId: this.accountId, scenarioId: this.scenarioId },
        provider: setup.provider,
        standIn: setup.standIn,
        tools: setup.tools,
        systemPrompt: setup.systemPrompt,
        welcomeMessage: setup.welcomeMessage,
        fillers: {
          delayMs: deps.fillerDelayMs,
          intervalMs: deps.fillerIntervalMs,
          max: deps.maxFillersPerTurn,
        },
      },
      history,
      this.#transcript,
      {
        send: (message) => this.send(message),
        error: (code, message) => this.error(code, message),
        elapsedMs: () => this.#elapsedMs(),
        output: () => this.#voice?.output ?? null,
        turnEnded: () => this.#active(),
        end: (reason) => this.end(reason),
      },
    );
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
    return this.#conversation.messages;
  }

  /** Resolves once every sentence and usage write queued so far has settled. */
  settled(): Promise<void> {
    return this.#transcript.settled();
  }

  /**
   * A (new) connection takes over the meeting; an older one on this process is replaced. Voice
   * starts afresh: `audio.output` says whether this client plays the persona's audio.
   */
  attach(socket: RoomSocket, audio: { output: boolean } = { output: false }): void {
    clearTimeout(this.#graceTimer);
    this.#active();
    const previous = this.#socket;
    this.#socket = socket;
    this.#voice?.dispose();
    this.#voice = this.#connectionVoice(audio.output);
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
    this.#voice?.dispose();
    this.#voice = null;
    this.#graceTimer = setTimeout(() => void this.end('participant_left'), this.#deps.reconnectGraceMs);
    this.#graceTimer.unref?.();
  }

  /**
   * After a join: the persona opens the call (nothing said yet) or answers the participant's last
   * words when no reply to them was completed (an instance died or shut down mid-turn).
   */
  resume(): void {
    if (!this.#closed && !this.#ending && !this.#handingOver) this.#conversation.resume();
  }

  send(message: ServerMessage): void {
    this.#echo.observe(message);
    if (this.#socket) sendTo(this.#socket, message);
  }

  error(code: RoomErrorCode, message: string, fatal = false): void {
    this.send({ type: 'error', code, message, fatal });
  }

  /** A participant utterance. Interim ones only interrupt; final ones are stored and answered. */
  utterance(message: UtteranceMessage): void {
    if (this.#closed || this.#ending || this.#handingOver) return;
    this.#active();
    if (!message.final) {
      if (this.#conversation.turnHasOutput) this.#conversation.interrupt();
      return;
    }
    const startMs = this.#plausibleOffset(message.start_ms) ?? this.#elapsedMs();
    const endMs = this.#plausibleOffset(message.end_ms) ?? null;
    this.#answer(message.text.trim(), startMs, endMs, message.input, message.id);
  }

  // ---- voice (docs/realtime.md#voice): only the current connection's frames reach its stream

  /** `audio.start`: the microphone stream of this connection begins. */
  async audioStart(message: AudioStartMessage, from: RoomSocket): Promise<void> {
    if (this.#closed || !this.#voice || from !== this.#socket) return;
    if (!this.#voice.canListen) {
      this.error('speech_unavailable', 'This service has no speech recogniser: send utterance frames.');
      return;
    }
    await this.#voice.startInput(this.#plausibleOffset(message.start_ms) ?? this.#elapsedMs());
  }

  /** `audio.stop`: the stream ends; an utterance in progress is finalised. */
  async audioStop(from: RoomSocket): Promise<void> {
    if (from === this.#socket) await this.#voice?.stopInput();
  }

  /** `socket` holds the meeting (frames still queued from a replaced one are dropped). */
  isCurrent(socket: RoomSocket): boolean {
    return this.#socket === socket;
  }

  /** Binary frames are taken only while the microphone stream is on. */
  get listening(): boolean {
    return this.#voice?.listening === true;
  }

  /** One frame of the participant's PCM, from `from` (ignored unless it is the current connection). */
  audio(pcm: Buffer, from: RoomSocket): void {
    if (!this.#closed && !this.#ending && from === this.#socket) this.#voice?.audio(pcm);
  }

  #connectionVoice(output: boolean): ConnectionVoice {
    const { logger, speech, voiceEndSilenceMs, voiceEndOfTurn, createSegmenter } = this.#deps;
    return new ConnectionVoice(
      speech,
      {
        send: (message) => this.send(message),
        error: (code, message) => this.error(code, message),
        // Speaking = a turn is running (thinking included) or its audio is still playing.
        personaSpeaking: () => this.#conversation.turnRunning || this.#voice?.output?.playing === true,
        personaWords: () => this.#echo.words(),
        bargeIn: () => this.#conversation.interrupt(),
        heard: () => this.#active(),
        utterance: (text, startMs, endMs) => {
          if (!this.#closed && !this.#ending && !this.#handingOver)
            this.#answer(text, startMs, endMs, 'voice');
        },
        sendAudio: (message, pcm) => {
          const socket = this.#socket;
          if (!socket?.open) return;
          socket.send(JSON.stringify(message));
          socket.sendBinary(pcm);
        },
        elapsedMs: () => this.#elapsedMs(),
        synthesisFailed: () =>
          this.error('speech_unavailable', 'The persona’s voice could not be synthesised; read the text.'),
      },
      {
        output,
        context: this.#setup.context,
        endSilenceMs: voiceEndSilenceMs,
        endOfTurn: voiceEndOfTurn,
        createSegmenter,
        logger: logger.child({ meeting_id: this.meetingId }),
      },
    );
  }

  /** A final utterance (typed, browser-recognised or from the microphone), within the rate limit. */
  #answer(text: string, startMs: number, endMs: number | null, input?: 'voice' | 'typed', clientId?: string) {
    this.#active();
    const now = performance.now();
    this.#recent = this.#recent.filter((at) => now - at < 1000);
    if (this.#recent.length >= UTTERANCES_PER_SECOND) {
      this.error('rate_limited', `At most ${UTTERANCES_PER_SECOND} final utterances per second.`);
      return;
    }
    this.#recent.push(now);
    if (!this.#conversation.answer(text, startMs, endMs, input, clientId)) {
      this.error(
        'storage_unavailable',
        'The meeting is paused: what you said could not be saved yet. Say it again in a moment.',
      );
    }
  }

  // ---- idleness and the end

  /**
   * Ends the call when nobody has said anything for the scenario's idle_timeout_seconds (measured
   * on the injected clock; checked every idleCheckMs, and callable directly). Never while the
   * persona is still answering. True when it ended the call.
   */
  checkIdle(): boolean {
    if (this.#closed || this.#ending) return false;
    if (this.#conversation.turnRunning) return false;
    const seconds =
      this.#setup.context.scenario.meeting_controls.idle_timeout_seconds ?? DEFAULT_IDLE_TIMEOUT_SECONDS;
    if (this.#deps.clock.now().getTime() - this.#lastActivityAt < seconds * 1000) return false;
    void this.end('idle_timeout');
    return true;
  }

  /**
   * Ends the meeting from here (leave, end_call, the duration limit, a lost connection): what was
   * said is written first, so the transcript is complete when the finalisation job reads it. While
   * the database is unreachable both wait for it (the room is told `ended` once it is back).
   */
  end(reason: EndReason): Promise<void> {
    if (this.#ending) return this.#ending;
    this.#ending = (async () => {
      this.#conversation.interrupt();
      await this.#transcript.settled();
      try {
        const result = await this.#transcript.retrying(() =>
          this.#deps.lifecycle.end(this.meetingId, reason),
        );
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
    this.#conversation.interrupt();
    await this.#transcript.settled();
    const row = await liveRepository.endState(this.#deps.db, this.meetingId);
    this.#finish(
      (row?.end_reason as EndReason | null) ?? reason,
      row?.ended_at ?? null,
      row?.duration_seconds ?? null,
    );
  }

  /**
   * This process is shutting down: take no new words, let the reply in flight finish (cut after
   * `handoverReplyMs`), store what was said, then close with 1012 "service restart", which the
   * room takes as "resume now" on another instance. The meeting goes on; words sent meanwhile
   * were not acknowledged, so the room sends them again there.
   */
  handOff(): Promise<void> {
    this.#handOff ??= this.#handOver();
    return this.#handOff;
  }

  async #handOver(): Promise<void> {
    if (this.#closed) return;
    // Words being spoken are recognised, stored and answered first: audio cannot be sent again.
    await this.#voice?.stopInput().catch(() => {});
    this.#handingOver = true;
    const { handoverReplyMs } = this.#deps;
    await within(this.#ending ?? this.#conversation.idle(), handoverReplyMs);
    if (this.#ending) return this.#ending;
    this.#conversation.interrupt('handover');
    // A database that is away keeps what is waiting from being stored: the room still holds the
    // participant's unacknowledged words and sends them again on the instance it resumes on.
    await within(this.#transcript.settled(), handoverReplyMs);
    if (this.#closed) return;
    this.#socket?.close(CLOSE.serviceRestart, 'server restarting: resume now');
    this.#dispose();
  }

  /** The participant joined through another instance: drop this copy without ending the meeting. */
  handOver(): void {
    if (this.#closed) return;
    this.#conversation.interrupt();
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

  #active(): void {
    this.#lastActivityAt = this.#deps.clock.now().getTime();
  }

  #elapsedMs(): number {
    return Math.max(0, this.#deps.clock.now().getTime() - this.#startedAt);
  }

  /** A meeting offset the room sent, when it is one the server can believe. */
  #plausibleOffset(value: number | undefined): number | undefined {
    return value !== undefined && value >= 0 && value <= this.#elapsedMs() + CLOCK_SLACK_MS
      ? value
      : undefined;
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
    const { usage } = this.#transcript;
    if (usage.turns > 0 || usage.promptTokens > 0) this.#transcript.flushUsage();
    this.#voice?.dispose();
    this.#voice = null;
    this.#socket = null;
    this.#transcript.abandon();
    clearTimeout(this.#deadlineTimer);
    clearTimeout(this.#graceTimer);
    clearInterval(this.#idleTimer);
    this.#deps.onClosed(this);
  }
}

/** Waits for `promise`, or `ms` at most. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** Every JSON frame goes out through here, typed as the protocol (and its AsyncAPI document) has it. */
export function sendTo(socket: RoomSocket, message: ServerMessage): void {
  if (socket.open) socket.send(JSON.stringify(message));
}
