// The participant of bench/voice, speaking the realtime protocol's voice part (docs/realtime.md,
// "Voice"): JSON frames both ways, the microphone as binary frames after `audio.start`, and the
// persona's audio as an `agent.audio` header followed by one binary frame. Every frame is stamped
// with performance.now() the moment it arrives.
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import type { Frame } from '../live/lib.ts';

export interface ReceivedAudio {
  header: Frame;
  /** When the binary frame (the first byte of this sentence's audio) arrived. */
  at: number;
  bytes: number;
}

export class VoiceParticipant {
  readonly socket: WebSocket;
  readonly frames: Array<{ frame: Frame; at: number }> = [];
  readonly audio: ReceivedAudio[] = [];
  #pendingHeader: Frame | null = null;
  #listeners = new Set<() => void>();
  /** Client-side playback: when the audio queued so far will have finished playing. */
  playbackEndsAt = 0;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (raw, isBinary) => {
      const at = performance.now();
      if (isBinary) {
        const header = this.#pendingHeader;
        this.#pendingHeader = null;
        if (!header) throw new Error('a binary frame arrived without its agent.audio header');
        const bytes = (raw as Buffer).length;
        this.audio.push({ header, at, bytes });
        const seconds = bytes / 2 / Number(header.sample_rate);
        this.playbackEndsAt = Math.max(at, this.playbackEndsAt) + seconds * 1000;
      } else {
        const frame = JSON.parse(raw.toString()) as Frame;
        if (frame.type === 'agent.audio') this.#pendingHeader = frame;
        this.frames.push({ frame, at });
      }
      for (const listener of this.#listeners) listener();
    });
  }

  static connect(base: string, meetingId: string, token: string): Promise<VoiceParticipant> {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/rooms/${meetingId}/live?t=${token}`);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new VoiceParticipant(socket)));
      socket.once('error', reject);
    });
  }

  send(frame: Record<string, unknown>): void {
    this.socket.send(JSON.stringify(frame));
  }

  sendAudio(pcm: Buffer): void {
    this.socket.send(pcm, { binary: true });
  }

  /** Resolves with the first value `find` returns that is not undefined, re-checked on every frame. */
  waitFor<T>(find: () => T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = find();
        if (found === undefined) return;
        this.#listeners.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.#listeners.delete(check);
        const last = this.frames.slice(-6).map((entry) => JSON.stringify(entry.frame).slice(0, 160));
        reject(new Error(`no ${what} within ${timeoutMs} ms; the last frames:\n${last.join('\n')}`));
      }, timeoutMs);
      this.#listeners.add(check);
      check();
    });
  }

  /** The first frame of `type` at index `from` or later (and its index). */
  frameAfter(type: string, from: number): { frame: Frame; at: number; index: number } | undefined {
    for (let index = from; index < this.frames.length; index += 1) {
      const entry = this.frames[index]!;
      if (entry.frame.type === type) return { ...entry, index };
    }
    return undefined;
  }

  close(): void {
    this.socket.close();
  }
}
