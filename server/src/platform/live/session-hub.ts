// The live meetings this process holds, and the glue to the rest: joins activate the meeting and
// open a session (provider, tools and the frozen system prompt); PostgreSQL NOTIFY carries control
// signals between instances (a meeting ended elsewhere, a participant who reconnected to another
// instance); a heartbeat tells the sweeper which meetings are still held.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { Database } from '../../core/db/database.ts';
import type { DB } from '../../core/db/schema.ts';
import type { LlmClient } from '../../core/llm/index.ts';
import type { OutboundRequest, OutboundResponse, OutboundStreamResponse } from '../../core/outbound/index.ts';
import { type CallableCustomFunction, loadCustomFunctionsForCall } from '../custom-functions/queries.ts';
import {
  type ControlSignal,
  ensureTranscript,
  MEETING_CONTROL_CHANNEL,
  type MeetingLifecycle,
  notifyControl,
} from '../meetings/lifecycle.ts';
import { renderParticipant, renderSentence } from '../meetings/render.ts';
import { meetingRepository } from '../meetings/repository.ts';
import type { EndReason } from '../meetings/schemas.ts';
import { customAgentForScenario } from '../scenarios/custom-agent.ts';
import type { SpeechEngines } from '../speech/types.ts';
import { loadMeetingContext, type MeetingContext, renderWelcome } from './context.ts';
import { offlineMayStandIn } from './fallback.ts';
import { assembleSystemPrompt, promptSourceOf, promptTools } from './prompt.ts';
import { CLOSE, type JoinMessage } from './protocol.ts';
import { createCustomAgentProvider } from './providers/custom-agent/provider.ts';
import { createOfflineScriptEngine, generateWelcomeMessage } from './providers/offline-script/index.ts';
import { createPlatformLlmProvider } from './providers/platform-llm.ts';
import type { ReplyProvider } from './providers/types.ts';
import { liveRepository } from './repository.ts';
import { LiveSession, type RoomSocket, type SessionDeps, sendTo } from './session.ts';
import { toolsFor } from './tools.ts';
import { speechCapabilities } from './voice/connection-voice.ts';
import type { EndOfTurn, SegmenterFactory } from './voice/voice-input.ts';
import type { WebSearch } from './web-search.ts';

export interface OutboundCalls {
  request(req: OutboundRequest): Promise<OutboundResponse>;
  stream(req: OutboundRequest): Promise<OutboundStreamResponse>;
}

export interface MeetingSessionHubDeps {
  database: Database;
  clock: Clock;
  secretBox: SecretBox;
  logger: Logger;
  config: Pick<Config, 'publicUrl'>;
  lifecycle: MeetingLifecycle;
  /** The SSRF-safe client: custom agents and custom functions. */
  outbound: OutboundCalls;
  llm: LlmClient | null;
  webSearch: WebSearch | null;
  /** The recogniser and synthesiser the sessions use (either may be null). */
  speech: SpeechEngines;
  /** Silence that ends a spoken utterance (VOICE_END_SILENCE_MS). */
  voiceEndSilenceMs?: number;
  /** VOICE_END_OF_TURN (adaptive when absent). */
  voiceEndOfTurn?: EndOfTurn;
  /** The microphone streams' voice-activity segmenter (the WebRTC VAD when absent; tests swap it). */
  createSegmenter?: SegmenterFactory;
  fillerDelayMs?: number;
  fillerIntervalMs?: number;
  maxFillersPerTurn?: number;
  idleCheckMs?: number;
  reconnectGraceMs?: number;
  heartbeatMs?: number;
  /** On shutdown, how long a reply in flight may take to finish before it is cut. */
  handoverReplyMs?: number;
}

export const FILLER_DELAY_MS = 1_500;
/** Fillers keep coming this often while the provider is slow (spec: "masks slow turns with filler audio"). */
export const FILLER_INTERVAL_MS = 4_000;
/**
 * Enough to cover a custom agent with the default timeout_s (10 s) and its retry (1.5 s + 5 × 4 s);
 * past that a repeated "one moment" is worse than the silence it covers.
 */
export const MAX_FILLERS_PER_TURN = 6;
const IDLE_CHECK_MS = 5_000;
export const RECONNECT_GRACE_MS = 30_000;
const HEARTBEAT_MS = 30_000;
/** Well inside SHUTDOWN_TIMEOUT_MS (15 s): a reply usually ends sooner; a longer one is cut and stored as cut. */
export const HANDOVER_REPLY_MS = 5_000;

export class MeetingSessionHub {
  readonly instanceId = randomUUID();
  readonly #deps: MeetingSessionHubDeps;
  readonly #db: Kysely<DB>;
  readonly #sessions = new Map<string, LiveSession>();
  readonly #opening = new Map<string, Promise<LiveSession>>();
  readonly #sessionDeps: SessionDeps;
  #unlisten: (() => Promise<void>) | null = null;
  #heartbeat: NodeJS.Timeout | undefined;
  /** Shutting down: joins are refused (the room resumes on another instance). */
  #stopping = false;
  /** Joins under way: a shutdown waits for them, then hands their meetings over too. */
  readonly #joining = new Set<Promise<unknown>>();

  constructor(deps: MeetingSessionHubDeps) {
    this.#deps = deps;
    this.#db = deps.database.db;
    this.#sessionDeps = {
      db: this.#db,
      clock: deps.clock,
      secretBox: deps.secretBox,
      logger: deps.logger,
      lifecycle: deps.lifecycle,
      functionCaller: deps.outbound,
      webSearch: deps.webSearch,
      speech: deps.speech,
      voiceEndSilenceMs: deps.voiceEndSilenceMs,
      voiceEndOfTurn: deps.voiceEndOfTurn,
      createSegmenter: deps.createSegmenter,
      fillerDelayMs: deps.fillerDelayMs ?? FILLER_DELAY_MS,
      fillerIntervalMs: deps.fillerIntervalMs ?? FILLER_INTERVAL_MS,
      maxFillersPerTurn: deps.maxFillersPerTurn ?? MAX_FILLERS_PER_TURN,
      idleCheckMs: deps.idleCheckMs ?? IDLE_CHECK_MS,
      reconnectGraceMs: deps.reconnectGraceMs ?? RECONNECT_GRACE_MS,
      handoverReplyMs: deps.handoverReplyMs ?? HANDOVER_REPLY_MS,
      onClosed: (session) => {
        if (this.#sessions.get(session.meetingId) === session) this.#sessions.delete(session.meetingId);
      },
    };
  }

  /** Sessions held by this process (tests, benchmarks, metrics). */
  get size(): number {
    return this.#sessions.size;
  }

  session(meetingId: string): LiveSession | undefined {
    return this.#sessions.get(meetingId);
  }

  async start(): Promise<void> {
    this.#unlisten = await this.#deps.database.listen(MEETING_CONTROL_CHANNEL, (payload) =>
      this.#onControl(payload),
    );
    this.#heartbeat = setInterval(() => {
      const held = [...this.#sessions.values()].filter((s) => s.connected).map((s) => s.meetingId);
      this.#deps.lifecycle
        .touch(held)
        .catch((error) => this.#deps.logger.warn({ err: error }, 'live heartbeat failed'));
    }, this.#deps.heartbeatMs ?? HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  /** Shutting down: new joins are refused (close 1012, as the hand-over's). */
  get stopping(): boolean {
    return this.#stopping;
  }

  /**
   * Shutdown: every meeting is handed over (LiveSession.handOff: replies in flight finish or are
   * cut, what was said is stored, the room is told to resume at once elsewhere); meetings go on.
   * Called before the listener's sockets are closed, so the rooms hear 1012 rather than 1001.
   */
  async handOffAll(): Promise<void> {
    this.#stopping = true;
    await Promise.allSettled([...this.#joining]);
    await Promise.all([...this.#sessions.values()].map((session) => session.handOff()));
  }

  /** The end of the process: hand over what is left, stop the heartbeat and the control channel. */
  async stop(): Promise<void> {
    await this.handOffAll();
    clearInterval(this.#heartbeat);
    await this.#unlisten?.().catch(() => {});
    this.#unlisten = null;
  }

  /**
   * The participant sent `join` on `socket`: activate the meeting, open (or resume) its session,
   * answer `joined`, and let the persona open the call. Returns null when the meeting has ended.
   */
  async join(meetingId: string, socket: RoomSocket, join: JoinMessage): Promise<LiveSession | null> {
    if (this.#stopping) {
      socket.close(CLOSE.serviceRestart, 'server restarting: resume now');
      return null;
    }
    const joining = this.#join(meetingId, socket, join);
    this.#joining.add(joining);
    try {
      return await joining;
    } finally {
      this.#joining.delete(joining);
    }
  }

  async #join(meetingId: string, socket: RoomSocket, join: JoinMessage): Promise<LiveSession | null> {
    const activation = await this.#deps.lifecycle.activate(meetingId, {
      name: join.name,
      recordingConsent: join.consent?.recording === true,
      recordingExpected: join.recording === true && join.consent?.recording === true,
      clientInfo: (join.client as Record<string, unknown> | undefined) ?? null,
    });
    if (activation.status === 'ended') {
      const meeting = activation.meeting;
      sendTo(socket, {
        type: 'error',
        code: 'meeting_ended',
        message: 'This meeting has ended.',
        fatal: true,
      });
      sendTo(socket, {
        type: 'ended',
        reason: (meeting.end_reason ?? 'ended_by_api') as EndReason,
        ended_at: new Date(meeting.ended_at ?? this.#deps.clock.now()).toISOString(),
        duration_seconds: meeting.duration_seconds ?? 0,
      });
      socket.close(CLOSE.normal, 'meeting_ended');
      return null;
    }
    // Another instance holding this meeting drops its copy (the newest connection wins). On the
    // first join nobody else can hold it, and a NOTIFY is not free (it serialises commits).
    if (!activation.firstJoin) {
      await notifyControl(this.#db, { action: 'takeover', meeting_id: meetingId, instance: this.instanceId });
    }
    const session = await this.#sessionFor(meetingId, activation.participant);
    session.attach(socket, { output: join.audio?.output === true });
    const context = { ...session.context, meeting: activation.meeting };
    // A reply streamed just before the drop may still be on its way to the database; the room
    // redraws its transcript from `joined`, so read only once this process's writes are in.
    if (!activation.firstJoin) await session.settled();
    const sentences = activation.firstJoin ? [] : await meetingRepository.sentences(this.#db, meetingId);
    const participant = renderParticipant(activation.participant);
    sendTo(socket, {
      type: 'joined',
      ...renderWelcome(
        context,
        this.#deps.config.publicUrl,
        this.#deps.clock.now(),
        speechCapabilities(this.#deps.speech),
      ),
      participant: { id: participant.id, name: participant.name },
      transcript: sentences.map(renderSentence),
      resumed: !activation.firstJoin,
    });
    session.resume();
    return session;
  }

  #sessionFor(meetingId: string, participant: { id: string; name: string | null }): Promise<LiveSession> {
    const existing = this.#sessions.get(meetingId);
    if (existing && !existing.closed) return Promise.resolve(existing);
    let opening = this.#opening.get(meetingId);
    if (!opening) {
      opening = this.#open(meetingId, participant).finally(() => this.#opening.delete(meetingId));
      this.#opening.set(meetingId, opening);
    }
    return opening;
  }

  async #open(meetingId: string, participant: { id: string; name: string | null }): Promise<LiveSession> {
    const { logger, secretBox } = this.#deps;
    const context = await loadMeetingContext(this.#db, meetingId);
    if (!context) throw new Error(`meeting ${meetingId} vanished`);
    const { meeting, scenario, persona } = context;
    const functions = await loadCustomFunctionsForCall(
      this.#db,
      secretBox,
      meeting.account_id,
      scenario.id,
    ).catch((error): CallableCustomFunction[] => {
      logger.warn(
        { err: error, meeting_id: meetingId },
        'custom functions could not be loaded; none offered',
      );
      return [];
    });
    const tools = toolsFor({ webSearch: this.#deps.webSearch !== null, functions });
    const participantName = meeting.person_name ?? participant.name;
    const systemPrompt = await this.#frozenPrompt(
      context,
      participantName,
      promptTools(this.#deps.webSearch !== null, functions),
    );
    const welcomeMessage =
      scenario.welcome_message?.trim() ||
      generateWelcomeMessage({
        personaName: persona?.name ?? 'your host',
        jobTitle: persona?.job_title ?? null,
        scenarioName: scenario.name,
        scenarioType: scenario.type,
        prompt: scenario.prompt,
      });
    const provider = await this.#provider(context, participantName, welcomeMessage);
    const standIn = offlineMayStandIn(scenario.meeting_controls.agent_fallback, provider.kind)
      ? this.#offlineEngine(context, participantName, welcomeMessage)
      : null;
    const transcript = await ensureTranscript(this.#db, meeting, this.#deps.clock.now());
    const history = await meetingRepository.transcriptSentences(this.#db, transcript.id);
    const session = new LiveSession(
      this.#sessionDeps,
      { context, provider, standIn, tools, systemPrompt, welcomeMessage, participant },
      history,
      Number(transcript.id),
    );
    this.#sessions.set(meetingId, session);
    return session;
  }

  /** The prompt assembled at the first start and kept (sealed) for the rest of the call. */
  async #frozenPrompt(
    context: MeetingContext,
    participantName: string | null,
    tools: { endCall: boolean; webSearch: boolean; customFunctions: string[] },
  ): Promise<string> {
    const { secretBox } = this.#deps;
    if (context.meeting.agent_prompt_sealed) return secretBox.open(context.meeting.agent_prompt_sealed);
    const prompt = await assembleSystemPrompt(
      { db: this.#db, secretBox, logger: this.#deps.logger },
      promptSourceOf(context),
      participantName,
      tools,
    );
    await liveRepository.sealPromptOnce(this.#db, context.meeting.id, secretBox.seal(prompt));
    const stored = await liveRepository.sealedPrompt(this.#db, context.meeting.id);
    return stored.agent_prompt_sealed ? secretBox.open(stored.agent_prompt_sealed) : prompt;
  }

  async #provider(
    context: MeetingContext,
    participantName: string | null,
    welcomeMessage: string,
  ): Promise<ReplyProvider> {
    const { meeting, scenario } = context;
    if (meeting.agent_provider === 'custom_agent') {
      const config = await customAgentForScenario(
        this.#db,
        this.#deps.secretBox,
        meeting.account_id,
        scenario.id,
      );
      if (config) {
        return createCustomAgentProvider({ client: this.#deps.outbound, config, logger: this.#deps.logger });
      }
      this.#deps.logger.warn(
        { meeting_id: meeting.id },
        'custom agent turned off since the meeting was created',
      );
    }
    if (meeting.agent_provider !== 'offline' && this.#deps.llm)
      return createPlatformLlmProvider(this.#deps.llm, { logger: this.#deps.logger });
    return this.#offlineEngine(context, participantName, welcomeMessage);
  }

  #offlineEngine(
    context: MeetingContext,
    participantName: string | null,
    welcomeMessage: string,
  ): ReplyProvider {
    const { scenario, persona } = context;
    return createOfflineScriptEngine({
      personaName: persona?.name ?? 'your host',
      jobTitle: persona?.job_title ?? null,
      demeanor: persona?.demeanor ?? null,
      background: persona?.background ?? null,
      scenarioName: scenario.name,
      scenarioType: scenario.type,
      prompt: scenario.prompt,
      welcomeMessage,
      participantName,
    });
  }

  #onControl(payload: string): void {
    let signal: ControlSignal;
    try {
      signal = JSON.parse(payload) as ControlSignal;
    } catch {
      return;
    }
    const session = this.#sessions.get(signal.meeting_id);
    if (!session) return;
    if (signal.action === 'ended') {
      void session
        .endedElsewhere(signal.reason)
        .catch((error) =>
          this.#deps.logger.warn(
            { err: error, meeting_id: signal.meeting_id },
            'could not close an ended meeting',
          ),
        );
    } else if (signal.action === 'takeover' && signal.instance !== this.instanceId) {
      session.handOver();
    }
  }
}
