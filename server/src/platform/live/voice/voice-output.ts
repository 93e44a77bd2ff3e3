// The persona's voice on one connection (docs/realtime.md#voice). The reply is split into sentences
// as it streams; each is synthesised in order and sent at once as `agent.audio` plus one binary
// frame, so the first sentence plays while the rest is still being written. Synthesis stays at
// most one sentence ahead of what the participant hears (by the server's playback estimate): a
// barge-in then wastes little work, and the room never holds more than one unplayed sentence
// beyond the current one. Interrupting drops the queue and any synthesis in flight.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { SpeechSynthesizer, VoiceChoice } from '../../speech/types.ts';
import type { AgentAudioMessage } from '../protocol.ts';
import { SentenceSplitter } from './sentences.ts';

export interface VoiceOutputHost {
  /** Sends the message and then its PCM as one binary frame, with nothing between them. */
  sendAudio(message: AgentAudioMessage, pcm: Buffer): void;
  /** The meeting offset now (ms since the meeting started). */
  elapsedMs(): number;
  /** A sentence could not be synthesised (it stays in the text; the room may speak it itself). */
  synthesisFailed(error: unknown): void;
  logger: Logger;
}

/** Where the persona's audio of one turn sits on the meeting's time line. */
export interface TurnAudioTiming {
  startMs: number;
  endMs: number;
}

interface TurnAudio {
  splitter: SentenceSplitter;
  controller: AbortController;
  seq: number;
  /** Reply audio only: fillers are not part of the stored sentence. */
  timing: TurnAudioTiming | null;
  drained: Promise<void>;
  resolveDrained: () => void;
}

type Job = { turnId: string; text: string; filler: boolean } | { turnId: string; drain: true };

export class VoiceOutput {
  readonly #synthesizer: SpeechSynthesizer;
  readonly #voice: VoiceChoice;
  readonly #host: VoiceOutputHost;
  readonly #turns = new Map<string, TurnAudio>();
  #queue: Job[] = [];
  #pumping = false;
  /** performance.now() at which the audio sent so far is expected to have finished playing. */
  #playingUntil = 0;
  /** performance.now() at which the last sentence sent is expected to start playing. */
  #lastStartsAt = 0;
  /** Meeting offset (ms) at which the audio sent so far ends: the next sentence is queued there. */
  #queuedUntilMs = 0;
  #disposed = false;

  constructor(synthesizer: SpeechSynthesizer, voice: VoiceChoice, host: VoiceOutputHost) {
    this.#synthesizer = synthesizer;
    this.#voice = voice;
    this.#host = host;
  }

  /** The participant is (by the estimate) still hearing the persona. */
  get playing(): boolean {
    return performance.now() < this.#playingUntil;
  }

  /** A piece of the turn's reply text. */
  text(turnId: string, delta: string): void {
    const turn = this.#turn(turnId);
    if (!turn) return;
    for (const sentence of turn.splitter.push(delta))
      this.#enqueue({ turnId, text: sentence, filler: false });
  }

  /** A filler phrase, spoken in its place in the queue. */
  filler(turnId: string, text: string): void {
    if (this.#turn(turnId)) this.#enqueue({ turnId, text, filler: true });
  }

  /**
   * The turn's text is complete: its last sentence is queued. Resolves once all of its audio has
   * been sent and (by the estimate) played, or at once when the turn is cancelled.
   */
  finish(turnId: string): Promise<void> {
    const turn = this.#turn(turnId);
    if (!turn) return Promise.resolve();
    for (const sentence of turn.splitter.flush()) this.#enqueue({ turnId, text: sentence, filler: false });
    this.#enqueue({ turnId, drain: true });
    return turn.drained;
  }

  /** Barge-in or end: nothing more is sent for the turn, and the room stops playing it. */
  cancel(turnId: string): void {
    const turn = this.#turns.get(turnId);
    if (!turn) return;
    turn.controller.abort();
    this.#queue = this.#queue.filter((job) => job.turnId !== turnId);
    const now = performance.now();
    this.#playingUntil = Math.min(this.#playingUntil, now);
    this.#lastStartsAt = Math.min(this.#lastStartsAt, now);
    turn.resolveDrained();
  }

  /** The turn's reply audio on the meeting time line (null when none was sent). */
  timing(turnId: string): TurnAudioTiming | null {
    return this.#turns.get(turnId)?.timing ?? null;
  }

  /** The turn is over for the session: forget it. */
  release(turnId: string): void {
    this.#turns.get(turnId)?.resolveDrained();
    this.#turns.delete(turnId);
  }

  /** The connection is gone: cancel everything. */
  dispose(): void {
    this.#disposed = true;
    for (const turnId of [...this.#turns.keys()]) this.cancel(turnId);
    this.#turns.clear();
    this.#queue = [];
  }

  #turn(turnId: string): TurnAudio | null {
    if (this.#disposed) return null;
    let turn = this.#turns.get(turnId);
    if (!turn) {
      let resolveDrained = () => {};
      const drained = new Promise<void>((resolve) => {
        resolveDrained = resolve;
      });
      turn = {
        splitter: new SentenceSplitter(this.#voice.language),
        controller: new AbortController(),
        seq: 0,
        timing: null,
        drained,
        resolveDrained,
      };
      this.#turns.set(turnId, turn);
    }
    return turn.controller.signal.aborted ? null : turn;
  }

  #enqueue(job: Job): void {
    this.#queue.push(job);
    if (!this.#pumping) void this.#pump();
  }

  async #pump(): Promise<void> {
    this.#pumping = true;
    try {
      for (let job = this.#queue.shift(); job; job = this.#queue.shift()) {
        const turn = this.#turns.get(job.turnId);
        if (!turn || turn.controller.signal.aborted) continue;
        const { signal } = turn.controller;
        try {
          if ('drain' in job) {
            // Timers count whole milliseconds from the loop's cached clock and may fire a fraction
            // early: wait until the estimate has really passed.
            while (performance.now() < this.#playingUntil)
              await sleep(Math.ceil(this.#playingUntil - performance.now()), undefined, { signal });
            turn.resolveDrained();
            continue;
          }
          // At most one sentence ahead: wait until the last one sent has started playing.
          await sleep(Math.max(0, this.#lastStartsAt - performance.now()), undefined, { signal });
          const audio = await this.#synthesizer.synthesize(job.text, this.#voice, signal);
          if (signal.aborted || audio.pcm.length === 0) continue;
          this.#send(job.turnId, turn, job.text, job.filler, audio.pcm, audio.sampleRate);
        } catch (error) {
          if (signal.aborted) continue;
          this.#host.logger.warn({ err: error }, 'a sentence could not be synthesised');
          this.#host.synthesisFailed(error);
        }
      }
    } finally {
      this.#pumping = false;
    }
  }

  #send(
    turnId: string,
    turn: TurnAudio,
    text: string,
    filler: boolean,
    pcm: Buffer,
    sampleRate: number,
  ): void {
    const now = performance.now();
    const durationMs = (pcm.length / 2 / sampleRate) * 1000;
    // Waits run on the monotonic clock; the meeting time line follows the session's clock, so a
    // sentence queued behind another starts exactly where that one ends.
    const queued = now < this.#playingUntil;
    const startsAt = queued ? this.#playingUntil : now;
    this.#lastStartsAt = startsAt;
    this.#playingUntil = startsAt + durationMs;
    const startMs = Math.round(queued ? this.#queuedUntilMs : this.#host.elapsedMs());
    this.#queuedUntilMs = startMs + durationMs;
    const endMs = Math.round(this.#queuedUntilMs);
    if (!filler) turn.timing = { startMs: turn.timing?.startMs ?? startMs, endMs };
    this.#host.sendAudio(
      {
        type: 'agent.audio',
        turn_id: turnId,
        seq: turn.seq,
        text,
        encoding: 'pcm_s16le',
        sample_rate: sampleRate,
        bytes: pcm.length,
        start_ms: startMs,
      },
      pcm,
    );
    turn.seq += 1;
  }
}
