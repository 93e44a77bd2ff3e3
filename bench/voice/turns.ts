// bench/voice/turns.ts: how soon a turn ends once the participant is done, and how often it ends
// while they are not (issue 29, requirement 5; docs/performance.md "End of turn").
//
// A participant speaks the speech test set's sentences (turn-set.ts: 66 sentences, two in three with
// a 300–700 ms pause inside, after a comma, a conjunction, a preposition or an "um") into a meeting
// over the room's WebSocket in real time, with the offline engines (PocketSphinx, Flite), once with
// the fixed end silence (VOICE_END_OF_TURN=fixed, VOICE_END_SILENCE_MS=600) and once with the
// adaptive policy, and waits for the persona's voice after each. For every sentence:
//   total       end of the participant's speech (the frame holding the last voiced audio, as the
//               service's segmenter placed it: speech.stopped.end_ms) → first persona audio byte;
//   stopped     that frame → speech.stopped at the client: the turn is over and its text known;
//   end wait    that frame → the service asking the recogniser for its final (the end of turn, or
//               with the adaptive one the speculative final during the pause, which comes before);
//   recognition finish() → the final text; reply: final text → first sentence handed to the
//               synthesiser (the persona engine or the loopback agent, and the plumbing around it);
//               synthesis of that sentence; rest: the audio's way to the client.
//   cut-in      the turn ended at the inserted pause: the sentence became two turns.
// Sentences that were cut, or that the recogniser heard as nothing, have no latency.
//
// Usage: npx tsx bench/voice/turns.ts
//   MODES=fixed,adaptive (default both), PERSONA=offline (the embedded persona engine, default) or
//   agent (a customer's agent on loopback answering at once, bench/voice/agent-server.ts),
//   SENTENCES=n (default all 66). Needs PocketSphinx (scripts/ensure-speech.sh) and PostgreSQL
//   (DATABASE_URL, else a throwaway database on the local server).
import type { ChildProcess } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { INPUT_SAMPLE_RATE } from '../../server/src/platform/speech/types.ts';
import { startChild, stopChild } from '../lib/child.ts';
import { benchDatabaseUrl } from '../lib/postgres.ts';
import { createMeeting, deadline, fmt, percentile } from '../live/lib.ts';
import { VoiceParticipant } from './client.ts';
import type { VoiceServerInfo } from './latency.ts';
import { SENTENCES } from './sentences.ts';
import type { EngineTiming } from './timed-engines.ts';
import { spokenTurn, type TurnSentence, turnSentences } from './turn-set.ts';

const MODES = (process.env.MODES ?? 'fixed,adaptive').split(',').filter(Boolean);
const PERSONA = process.env.PERSONA ?? 'offline';
const LIMIT = Number(process.env.SENTENCES ?? Number.POSITIVE_INFINITY);
const LIMIT_MS = 80 * 60_000;
const TARGET_P50_MS = 450;
const FRAME_MS = 20;
const FRAME_BYTES = (INPUT_SAMPLE_RATE * FRAME_MS * 2) / 1000;
/** About -66 dBFS of white noise: a quiet room through a laptop microphone. */
const NOISE_AMPLITUDE = 0.0005;
/** Quiet after the persona's audio has played before speaking again (no barge-in). */
const QUIET_AFTER_PERSONA_MS = 400;
/** A speech.stopped this close before the voice's end closes the sentence (the detector's trailing). */
const END_TOLERANCE_MS = 300;
/** Sentences said in one meeting before the next starts. */
const MEETING_SENTENCES = 11;

interface ServerInfo extends VoiceServerInfo {
  offlineScenarioId: string;
  endOfTurn: string;
}

interface Sample {
  totalMs: number;
  /** End of speech → speech.stopped at the client: the turn is over and its text known. */
  stoppedMs: number;
  endWaitMs: number;
  recognitionMs: number;
  replyMs: number;
  synthesisMs: number;
  restMs: number;
}

interface Result {
  sentence: TurnSentence;
  heard: string;
  /** Turns the sentence became, and whether one ended at the inserted pause. */
  turns: number;
  cutIn: boolean;
  /** The persona said nothing to it. */
  unanswered?: boolean;
  sample: Sample | null;
}

/** A microphone sending 20 ms frames at real-time pace, noise under and between the sentences. */
class Microphone {
  /** performance.now() at which each frame left, by index (frame k holds offsets k·20…k·20+20 ms). */
  readonly sentAt: number[] = [];
  #queue: Buffer = Buffer.alloc(0);
  #startedAt = 0;
  #timer: NodeJS.Timeout | null = null;
  #noiseState = 0x2545f491;

  constructor(readonly send: (frame: Buffer) => void) {}

  start(): void {
    this.#startedAt = performance.now();
    this.#tick();
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
  }

  /** Queues speech; answers the stream offset (ms) at which it will start. */
  say(pcm: Buffer): number {
    const queuedFrames = Math.ceil(this.#queue.length / FRAME_BYTES);
    this.#queue = Buffer.concat([this.#queue, pcm]);
    return (this.sentAt.length + queuedFrames) * FRAME_MS;
  }

  #tick(): void {
    const due = Math.floor((performance.now() - this.#startedAt) / FRAME_MS);
    while (this.sentAt.length < due) this.#sendFrame();
    const next = this.#startedAt + (this.sentAt.length + 1) * FRAME_MS;
    this.#timer = setTimeout(() => this.#tick(), Math.max(0, next - performance.now()));
  }

  #sendFrame(): void {
    const frame = Buffer.alloc(FRAME_BYTES);
    let state = this.#noiseState;
    const speech = this.#queue.subarray(0, FRAME_BYTES);
    this.#queue = this.#queue.subarray(speech.length);
    for (let at = 0; at < FRAME_BYTES; at += 2) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      const noise = Math.round(((state >>> 0) / 0xffffffff - 0.5) * 2 * NOISE_AMPLITUDE * 32767);
      const voice = at < speech.length ? speech.readInt16LE(at) : 0;
      frame.writeInt16LE(Math.max(-32768, Math.min(32767, noise + voice)), at);
    }
    this.#noiseState = state;
    this.send(frame);
    this.sentAt.push(performance.now());
  }
}

const toWall = (at: number) => performance.timeOrigin + at;

async function drain<T>(url: string): Promise<T[]> {
  return (await (await fetch(url)).json()) as T[];
}

/** Waits until the persona has finished speaking (its later sentences may still be arriving). */
async function quiet(p: VoiceParticipant): Promise<void> {
  for (;;) {
    const received = p.audio.length;
    const wait = p.playbackEndsAt + QUIET_AFTER_PERSONA_MS - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (p.audio.length === received) return;
  }
}

async function speak(
  p: VoiceParticipant,
  mic: Microphone,
  info: ServerInfo,
  agentUrl: string,
  sentence: TurnSentence,
): Promise<Result | null> {
  await drain(`${info.base}/bench/voice-timings`);
  if (PERSONA === 'agent') await drain(new URL('/bench/replies', agentUrl).toString());
  const framesBefore = p.frames.length;
  const audioBefore = p.audio.length;
  const startMs = mic.say(sentence.pcm);
  const voiceEndMs = startMs + sentence.voiceEndMs;
  const stoppedFrames = () =>
    p.frames.slice(framesBefore).filter((entry) => entry.frame.type === 'speech.stopped');
  const closing = await p.waitFor(
    () =>
      stoppedFrames().find((entry) => Number(entry.frame.end_ms) >= voiceEndMs - END_TOLERANCE_MS) ??
      (p.frameAfter('ended', framesBefore) ? ('ended' as const) : undefined),
    `the end of "${sentence.text}"`,
  );
  // The persona ended the meeting meanwhile: the sentence is said again in the next one.
  if (closing === 'ended') return null;
  const last = closing;
  const stopped = stoppedFrames().filter((entry) => entry.at <= last.at);
  const pause = sentence.pause;
  const cutIn =
    pause !== null &&
    stopped.some((entry) => {
      const end = Number(entry.frame.end_ms);
      return end >= startMs + pause.atMs - END_TOLERANCE_MS && end <= startMs + pause.atMs + pause.ms;
    });
  const heard = String(last.frame.text);
  const result: Result = { sentence, heard, turns: stopped.length, cutIn, sample: null };
  if (heard === '') return result;
  const lastIndex = p.frames.indexOf(last);
  // The persona may let a turn pass without a word (the offline engine does, now and then).
  const answered = await p
    .waitFor(() => p.frameAfter('agent.message', lastIndex), 'agent.message', 10_000)
    .then(() => true)
    .catch(() => false);
  if (!answered) {
    result.unanswered = true;
    return result;
  }
  if (cutIn || stopped.length > 1) {
    await quiet(p);
    return result;
  }
  const first = await p.waitFor(() => p.audio[audioBefore], 'the persona audio');
  const speechEndAt = mic.sentAt[Number(last.frame.end_ms) / FRAME_MS - 1]!;
  const timings = await drain<EngineTiming>(`${info.base}/bench/voice-timings`);
  const recognition = timings.findLast((t) => t.kind === 'recognition' && t.text.trim() === heard);
  const synthesis = timings.find((t) => t.kind === 'synthesis' && t.text === first.header.text);
  if (!recognition || !synthesis)
    throw new Error(`no engine timings for "${heard}": ${JSON.stringify(timings)}`);
  result.sample = {
    totalMs: first.at - speechEndAt,
    stoppedMs: last.at - speechEndAt,
    endWaitMs: recognition.startedAt - toWall(speechEndAt),
    recognitionMs: recognition.ms,
    replyMs: synthesis.startedAt - recognition.endedAt,
    synthesisMs: synthesis.ms,
    restMs: toWall(first.at) - synthesis.endedAt,
  };
  await quiet(p);
  return result;
}

async function runMode(mode: string, agentUrl: string, sentences: TurnSentence[], warmup: TurnSentence[]) {
  const { url, drop } = benchDatabaseUrl(`voice_turns_${mode}`);
  const { info, child } = await startChild<ServerInfo>('bench/voice/server.ts', {
    DATABASE_URL: url,
    AGENT_URL: agentUrl,
    STT_ENGINE: 'pocketsphinx',
    TTS_ENGINE: 'flite',
    VOICE_END_OF_TURN: mode,
    VOICE_END_SILENCE_MS: '600',
  });
  children.push(child);
  try {
    const scenario = PERSONA === 'agent' ? info.agentScenarioId! : info.offlineScenarioId;
    const results: Result[] = [];
    // A meeting per MEETING_SENTENCES: the offline persona ends its script after a few dozen turns.
    // A new meeting also when the persona ends one (the offline engine's script is complete).
    for (let from = 0; from < sentences.length; ) {
      const meeting = await createMeeting(info, scenario);
      const p = await VoiceParticipant.connect(info.base, meeting.id, meeting.token);
      const mic = new Microphone((frame) => p.sendAudio(frame));
      try {
        p.send({ type: 'join', consent: { recording: false }, audio: { output: true } });
        await p.waitFor(() => p.frameAfter('joined', 0), 'joined');
        await p.waitFor(() => p.frameAfter('agent.message', 0), 'the welcome');
        await p.waitFor(() => (p.audio.length > 0 ? true : undefined), 'the welcome audio');
        p.send({ type: 'audio.start', start_ms: 0 });
        mic.start();
        if (from === 0) {
          for (const sentence of warmup) {
            await quiet(p);
            await speak(p, mic, info, agentUrl, sentence);
          }
        }
        for (let said = 0; said < MEETING_SENTENCES && from < sentences.length; said += 1, from += 1) {
          if (p.frameAfter('ended', 0)) break;
          const sentence = sentences[from]!;
          await quiet(p);
          const result = await speak(p, mic, info, agentUrl, sentence);
          if (result === null) break;
          results.push(result);
          const total = result.sample ? `${fmt(result.sample.totalMs)}` : result.cutIn ? 'CUT' : '-';
          console.error(
            `  [${mode} ${from + 1}/${sentences.length}] ${total.padStart(10)}  ${sentence.pause ? `pause ${sentence.pause.ms} ms after ${sentence.pause.after}` : 'no pause'}: "${result.heard}"`,
          );
        }
        p.send({ type: 'leave' });
      } finally {
        mic.stop();
        p.close();
      }
    }
    return { info, results };
  } finally {
    await stopChild(child);
    drop();
  }
}

const line = (label: string, values: number[]) =>
  `  ${label.padEnd(46)} p50 ${fmt(percentile(values, 50)).padStart(10)}  p90 ${fmt(percentile(values, 90)).padStart(10)}  (${values.length})`;

function report(info: ServerInfo, results: Result[]): void {
  const samples = results.flatMap((r) =>
    r.sample ? [{ ...r.sample, paused: r.sentence.pause !== null }] : [],
  );
  const pick = (key: keyof Sample, filter = (_: { paused: boolean }) => true) =>
    samples.filter(filter).map((s) => s[key]);
  const paused = results.filter((r) => r.sentence.pause !== null);
  const cut = paused.filter((r) => r.cutIn);
  const split = results.filter((r) => r.turns > 1 && !r.cutIn);
  console.log(
    `\nend of turn ${info.endOfTurn} (VOICE_END_SILENCE_MS ${info.endSilenceMs}), ${info.recognizer} → ${PERSONA === 'agent' ? 'loopback agent' : 'offline persona engine'} → ${info.synthesizer}: ${results.length} sentences, ${paused.length} with a pause`,
  );
  console.log(line('end of speech → first persona audio', pick('totalMs')));
  console.log(
    line(
      '  sentences without a pause',
      pick('totalMs', (s) => !s.paused),
    ),
  );
  console.log(
    line(
      '  sentences with a pause',
      pick('totalMs', (s) => s.paused),
    ),
  );
  console.log(line('  end of speech → speech.stopped (turn over, text known)', pick('stoppedMs')));
  console.log(line('  end wait (silence → the final recognition asked)', pick('endWaitMs')));
  console.log(line('  recognition (final text, after the end)', pick('recognitionMs')));
  console.log(line('  reply (final text → first sentence to synthesis)', pick('replyMs')));
  console.log(line('  synthesis (first sentence)', pick('synthesisMs')));
  console.log(line('  rest (audio ready → at the client)', pick('restMs')));
  const p50 = percentile(pick('totalMs'), 50);
  console.log(`  target p50 < ${TARGET_P50_MS} ms: ${p50 < TARGET_P50_MS ? 'met' : 'NOT met'}`);
  console.log(
    `  cut-ins (a turn ended at the inserted pause): ${cut.length} of ${paused.length} paused sentences;` +
      ` other splits: ${split.length}; heard nothing: ${results.filter((r) => r.heard === '').length};` +
      ` not answered: ${results.filter((r) => r.unanswered).length}`,
  );
  for (const r of cut)
    console.log(
      `    cut: pause ${r.sentence.pause!.ms} ms after ${r.sentence.pause!.after}: "${r.sentence.text}"`,
    );
}

const limit = deadline(LIMIT_MS, 'end-of-turn benchmark');
const children: ChildProcess[] = [];
try {
  await Promise.race([
    (async () => {
      console.log(
        `bench/voice/turns on ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)} before the run`,
      );
      const sentences = await turnSentences(LIMIT);
      const warmup = [await spokenTurn(SENTENCES[0], 'rms'), await spokenTurn(SENTENCES[1], 'awb')];
      const agent = await startChild<{ url: string }>('bench/voice/agent-server.ts', {});
      children.push(agent.child);
      for (const mode of MODES) {
        const { info, results } = await runMode(mode, agent.info.url, sentences, warmup);
        report(info, results);
        console.log(`  load average after: ${loadavg()[0]!.toFixed(1)}`);
      }
    })(),
    limit.promise,
  ]);
} finally {
  limit.cancel();
  for (const child of children) await stopChild(child);
}
