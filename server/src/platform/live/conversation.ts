// The conversation of a live meeting and its turns: each final utterance is added and answered by
// the first provider that manages to (the meeting's, then its stand-in), or by an apology; a newer
// utterance or a barge-in cuts the running turn. What happens inside one turn (fillers, provider
// rounds, tool calls) is in turn.ts; the session (session.ts) owns the connection and the end.
// An utterance the room sends again (after a reconnect, with the id it had) is stored once and
// answered once; a resumed conversation answers the participant's last words if nothing did.
import type { Logger } from 'pino';
import type { SentenceRow } from '../meetings/render.ts';
import type { EndReason } from '../meetings/schemas.ts';
import { APOLOGY_TEXTS, FILLER_TEXTS } from './fallback.ts';
import type { RoomErrorCode, ServerMessage } from './protocol.ts';
import { chunkText } from './providers/offline-script/index.ts';
import type { ChatMessage, ReplyProvider, ToolCall, ToolSpec } from './providers/types.ts';
import type { SentenceCut, SentenceProvider } from './tables.ts';
import { runTool, type ToolRunnerDeps } from './tool-runner.ts';
import type { TranscriptWriter } from './transcript-writer.ts';
import { type FillerPlan, newTurn, type RoundHooks, runRounds, scheduleFillers, type Turn } from './turn.ts';
import type { VoiceOutput } from './voice/voice-output.ts';

export interface ConversationHost {
  send(message: ServerMessage): void;
  error(code: RoomErrorCode, message: string): void;
  /** The meeting offset now (ms). */
  elapsedMs(): number;
  /** The persona's audio on the current connection, when that client plays it. */
  output(): VoiceOutput | null;
  /** A persona turn ended: the idle clock restarts. */
  turnEnded(): void;
  /** A tool ended the call (after the turn). */
  end(reason: EndReason): Promise<void>;
}

export interface ConversationSetup {
  meeting: { meetingId: string; accountId: string; scenarioId: string };
  provider: ReplyProvider;
  standIn: ReplyProvider | null;
  tools: ToolSpec[];
  systemPrompt: string;
  welcomeMessage: string;
  fillers: FillerPlan;
}

/** What the conversation needs of a stored sentence to resume. */
export type HistorySentence = Pick<SentenceRow, 'speaker' | 'message' | 'client_id' | 'cut'>;

export class Conversation {
  readonly messages: ChatMessage[];
  readonly #deps: ToolRunnerDeps & { logger: Logger };
  readonly #setup: ConversationSetup;
  readonly #transcript: TranscriptWriter;
  readonly #host: ConversationHost;
  #turn: Turn | null = null;
  /** Fillers and apologies said so far: each picks the next text, so the persona does not repeat itself. */
  #fillersSaid = 0;
  #apologiesSaid = 0;
  /** Client ids of the utterances heard (stored or being stored): a resent one is not answered again. */
  readonly #heard = new Set<string>();
  /** The stored conversation ends with words of the participant that no reply answered. */
  #unanswered: boolean;
  /** Waiting for the running turn to end (a hand-over lets the reply in flight finish). */
  #idleWaiters: Array<() => void> = [];

  constructor(
    deps: ToolRunnerDeps,
    setup: ConversationSetup,
    history: HistorySentence[],
    transcript: TranscriptWriter,
    host: ConversationHost,
  ) {
    this.#deps = deps;
    this.#setup = setup;
    this.#transcript = transcript;
    this.#host = host;
    this.messages = [
      { role: 'system', content: setup.systemPrompt },
      ...history.map(
        (sentence): ChatMessage => ({
          role: sentence.speaker === 'agent' ? 'assistant' : 'user',
          content: sentence.message,
        }),
      ),
    ];
    for (const sentence of history) if (sentence.client_id) this.#heard.add(sentence.client_id);
    this.#unanswered = endsUnanswered(history);
    // The provider answers those words afresh, not by continuing a reply cut off mid-sentence.
    if (this.#unanswered && history.at(-1)?.speaker === 'agent') this.messages.pop();
  }

  /** A persona turn is under way (thinking, speaking, or its audio still playing). */
  get turnRunning(): boolean {
    return this.#turn !== null && !this.#turn.finished;
  }

  /** Resolves once no turn is running (at once when none is). */
  idle(): Promise<void> {
    if (!this.turnRunning) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** The running turn has said or done something (the test for a browser's interim barge-in). */
  get turnHasOutput(): boolean {
    return this.#turn?.output === true && !this.#turn.finished;
  }

  /**
   * A (re)joined participant: the persona opens the call with the welcome message when nothing was
   * said yet, or answers the participant's last words when the instance that heard them died (or
   * handed the meeting over) before its reply was complete.
   */
  resume(): void {
    if (this.turnRunning) return;
    if (this.#unanswered) {
      this.#unanswered = false;
      this.#answerLast();
      return;
    }
    if (this.messages.some((message) => message.role === 'assistant')) return;
    const words = chunkText(this.#setup.welcomeMessage);
    const welcome: ReplyProvider = {
      kind: 'offline',
      async *reply() {
        for (const text of words) yield { type: 'delta', text };
      },
    };
    this.#startTurn([welcome], [], 'welcome');
  }

  /**
   * A final utterance of the participant: stored, then answered (cutting a running turn). One the
   * room sent before (the same `clientId`) is only acknowledged again. False when it could not be
   * kept (the database has been away too long): then it is not answered either.
   */
  answer(
    text: string,
    startMs: number,
    endMs: number | null,
    input?: 'voice' | 'typed',
    clientId?: string,
  ): boolean {
    const sentence = {
      speaker: 'user' as const,
      message: text,
      startMs,
      endMs,
      provider: null,
      clientId,
      input,
    };
    if (clientId && this.#heard.has(clientId)) {
      this.#transcript.store(sentence);
      return true;
    }
    if (this.#transcript.full) return false;
    if (clientId) this.#heard.add(clientId);
    this.interrupt();
    this.#transcript.store(sentence);
    this.#unanswered = false;
    this.messages.push({ role: 'user', content: text });
    this.#answerLast();
    return true;
  }

  #answerLast(): void {
    const { provider, standIn } = this.#setup;
    this.#startTurn(standIn ? [provider, standIn] : [provider], this.#setup.tools);
  }

  /**
   * Cuts the running turn (barge-in, a newer utterance, the end, a hand-over): what was said stays,
   * stored as cut by `cause`; its audio stops.
   */
  interrupt(cause: SentenceCut = 'participant'): void {
    const turn = this.#turn;
    if (!turn || turn.finished) return;
    turn.controller.abort();
    clearTimeout(turn.fillerTimer);
    this.#host.output()?.cancel(turn.id);
    // Every tool call in the conversation needs its result before the next user message.
    for (const [id, name] of turn.pendingCalls) {
      this.messages.push({
        role: 'tool',
        tool_call_id: id,
        name,
        content: JSON.stringify({ error: { type: 'interrupted', message: 'The participant interrupted.' } }),
      });
    }
    turn.pendingCalls.clear();
    this.#finishTurn(turn, cause);
  }

  #startTurn(providers: ReplyProvider[], tools: ToolSpec[], speaker?: SentenceProvider): void {
    const turn = newTurn(speaker ?? providers[0]!.kind);
    this.#turn = turn;
    scheduleFillers(turn, this.#setup.fillers, () => {
      const text = FILLER_TEXTS[this.#fillersSaid % FILLER_TEXTS.length]!;
      this.#fillersSaid += 1;
      this.#host.send({ type: 'filler', turn_id: turn.id, text });
      this.#host.output()?.filler(turn.id, text);
    });
    void this.#runTurn(turn, providers, tools, speaker).catch((error) => {
      this.#deps.logger.error(
        { err: error, meeting_id: this.#setup.meeting.meetingId },
        'turn failed unexpectedly',
      );
    });
  }

  /**
   * Answered by the first of `providers` that manages to; when every one fails, the persona
   * apologises. `speaker` overrides what is recorded as having spoken (the welcome).
   */
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
        endReason = await runRounds(turn, provider, offered, this.#roundHooks(turn));
        answered = true;
        break;
      } catch (error) {
        if (signal.aborted) return;
        this.#deps.logger.warn(
          { err: error, meeting_id: this.#setup.meeting.meetingId, provider: provider.kind },
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
    // With audio output the turn lasts until its audio has played: until then it can be cut.
    const output = this.#host.output();
    if (output) {
      await output.finish(turn.id);
      if (signal.aborted) return;
    }
    this.#finishTurn(turn, null);
    const { usage } = this.#transcript;
    usage.turns += 1;
    if (turn.answeredBy !== 'welcome') usage.answered[turn.answeredBy] += 1;
    if (endReason) await this.#host.end(endReason);
  }

  #roundHooks(turn: Turn): RoundHooks {
    return {
      messages: this.messages,
      speak: (text) => this.#speak(turn, text),
      markOutput: () => this.#markOutput(turn),
      tokens: (promptTokens, completionTokens) => {
        this.#transcript.usage.promptTokens += promptTokens;
        this.#transcript.usage.completionTokens += completionTokens;
      },
      runTool: (call: ToolCall, endCall) =>
        runTool(this.#deps, call, {
          ...this.#setup.meeting,
          signal: turn.controller.signal,
          status: (status) =>
            this.#host.send({
              type: 'tool',
              turn_id: turn.id,
              call_id: call.id,
              name: call.function.name,
              status,
            }),
          endCall,
        }),
    };
  }

  #speak(turn: Turn, text: string): void {
    this.#markOutput(turn);
    clearTimeout(turn.fillerTimer);
    turn.text += text;
    turn.unpushed += text;
    this.#host.send({ type: 'agent.delta', turn_id: turn.id, text });
    this.#host.output()?.text(turn.id, text);
  }

  /**
   * Every provider failed: the room is told (`agent_unavailable`) and the persona says a short
   * apology, so the participant hears why nothing came; their next utterance asks the provider again.
   */
  #apologise(turn: Turn): void {
    this.#host.error('agent_unavailable', 'The agent could not answer. Say something to try again.');
    turn.answeredBy = 'apology';
    const text = APOLOGY_TEXTS[this.#apologiesSaid % APOLOGY_TEXTS.length]!;
    this.#apologiesSaid += 1;
    for (const chunk of chunkText(text)) this.#speak(turn, chunk);
  }

  #markOutput(turn: Turn): void {
    if (turn.output) return;
    turn.output = true;
    turn.startMs = this.#host.elapsedMs();
  }

  #finishTurn(turn: Turn, cut: SentenceCut | null): void {
    const interrupted = cut !== null;
    if (turn.finished) return;
    turn.finished = true;
    clearTimeout(turn.fillerTimer);
    this.#host.turnEnded();
    if (this.#turn === turn) {
      this.#turn = null;
      for (const resolve of this.#idleWaiters.splice(0)) resolve();
    }
    if (turn.unpushed) this.messages.push({ role: 'assistant', content: turn.unpushed });
    turn.unpushed = '';
    // A spoken turn sits where its audio played (cut where the participant cut in).
    const now = this.#host.elapsedMs();
    const output = this.#host.output();
    const audio = output?.timing(turn.id) ?? null;
    output?.release(turn.id);
    const text = turn.text.trim();
    if (text === '') return;
    this.#host.send({ type: 'agent.message', turn_id: turn.id, text: turn.text, interrupted });
    this.#transcript.store({
      speaker: 'agent',
      message: text,
      startMs: audio?.startMs ?? turn.startMs ?? now,
      endMs: audio ? Math.max(audio.startMs, interrupted ? Math.min(audio.endMs, now) : audio.endMs) : now,
      provider: turn.answeredBy,
      cut,
    });
    // Model tokens are written at every turn (they are billed); the turn count waits for the end.
    const { usage } = this.#transcript;
    if (usage.promptTokens > 0 || usage.completionTokens > 0) this.#transcript.flushUsage();
  }
}

/**
 * Whether a stored conversation ends with words of the participant that nothing answered: no
 * persona sentence after them, or only one cut by a hand-over (the instance shut down mid-reply).
 */
function endsUnanswered(history: HistorySentence[]): boolean {
  const last = history.at(-1);
  if (!last) return false;
  if (last.speaker === 'user') return true;
  return last.cut === 'handover' && history.at(-2)?.speaker === 'user';
}
