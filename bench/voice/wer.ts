// The accuracy part of bench/voice: the offline recogniser (PocketSphinx, through the service's own
// adapter and sidecar) on the speech test set (server/test/speech/speech-set.ts): every sentence
// spoken by every voice (speech-voices.ts: festival, espeak-ng and the product's own Flite voices,
// made at run time), and the human recordings of pocketsphinx-testdata, streamed in 100 ms chunks
// as the room would. Each utterance is recognised twice in the same run: without a context (a
// general recogniser, the baseline) and with its meeting's context (the meeting id and the
// scenario's text, as the room passes them), so one run measures what the context changes.
//
// Word error rate is counted over a whole group (total word edits / total reference words). CPU is
// the sidecar's own (utime + stime from /proc/<pid>/stat around each utterance), per second of
// audio; where /proc cannot be read, only the wall time is reported.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import {
  createPocketSphinxRecognizer,
  DEFAULT_PYTHON,
  detectPocketSphinx,
  type PocketSphinxRecognizer,
} from '../../server/src/platform/speech/stt/pocketsphinx.ts';
import { INPUT_SAMPLE_RATE, type RecognitionContext } from '../../server/src/platform/speech/types.ts';
import { normalizeWords, wordEditDistance } from '../../server/src/platform/speech/wer.ts';
import { chunksOf, silencePcm } from '../../server/test/speech/audio-fixtures.ts';
import type { SetMeeting } from '../../server/test/speech/speech-set.ts';
import {
  type HumanClip,
  humanClips,
  type TestVoice,
  voicePcm,
  voiceUnavailable,
} from '../../server/test/speech/speech-voices.ts';
import { ratio } from '../lib/postgres.ts';

export const PASSES = ['without', 'with'] as const;
export type Pass = (typeof PASSES)[number];

/** One utterance, recognised in both passes. */
export interface Sample {
  /** The voice's id, or `human/<corpus>`. */
  source: string;
  /** The voice's family, or `human`. */
  family: string;
  human: boolean;
  meeting: string;
  inDomain: boolean;
  said: string;
  words: number;
  audioMs: number;
  heard: Record<Pass, string>;
  edits: Record<Pass, number>;
}

export interface PassCost {
  audioMs: number;
  wallMs: number;
  /** The sidecar's CPU time; null when /proc could not be read. */
  cpuMs: number | null;
  /** The sidecar's resident memory after the pass, and its peak so far (kB); null without /proc. */
  rssKb: number | null;
  peakKb: number | null;
  /** Distinct meeting ids the pass named (0 without context). */
  meetings: number;
}

export interface SpeechSetRun {
  samples: Sample[];
  /** Voices and recordings left out, with the reason. */
  skipped: string[];
  cost: Record<Pass, PassCost>;
}

interface Utterance {
  source: string;
  family: string;
  human: boolean;
  meeting: SetMeeting;
  meetingId: string;
  inDomain: boolean;
  said: string;
  pcm: Buffer;
}

/** `{ unavailable }` when PocketSphinx is not installed (the caller prints the reason). */
export async function measureSpeechSet(
  meetings: readonly SetMeeting[],
  voices: readonly TestVoice[],
  options: { human?: boolean } = {},
): Promise<SpeechSetRun | { unavailable: string }> {
  const detection = await detectPocketSphinx(DEFAULT_PYTHON);
  if (!detection.available) return { unavailable: detection.reason };
  const skipped: string[] = [];
  const utterances: Utterance[] = [];
  for (const voice of voices) {
    const reason = voiceUnavailable(voice);
    if (reason) {
      skipped.push(`${voice.id}: ${reason}`);
      continue;
    }
    for (const meeting of meetings) {
      for (const sentence of meeting.sentences) {
        utterances.push({
          source: voice.id,
          family: voice.family,
          human: false,
          meeting,
          // Each voice is its own participant: its meetings are its own.
          meetingId: `${voice.id}/${meeting.id}`,
          inDomain: sentence.inDomain,
          said: sentence.text,
          pcm: await voicePcm(voice, sentence.text),
        });
      }
    }
  }
  if (options.human !== false) {
    const human = await humanClips();
    skipped.push(...human.skipped.map((reason) => `human: ${reason}`));
    const corpora = [...new Set(human.clips.map((clip) => clip.corpus))];
    for (const clip of human.clips) {
      // One speaker's recordings form one meeting, held in one of the scenarios: out of its domain.
      const meeting = meetings[corpora.indexOf(clip.corpus) % meetings.length]!;
      utterances.push(await humanUtterance(clip, meeting));
    }
  }

  const recognizer = createPocketSphinxRecognizer({
    modelDir: detection.modelDir,
    logger: pino({ level: 'error' }),
  });
  const byPass = {} as Record<Pass, { heard: string[]; cost: PassCost }>;
  try {
    // The sidecar starts and loads its model on the first utterance: not part of either pass.
    await recognise(recognizer, silencePcm(300));
    for (const pass of PASSES) {
      const cost: PassCost = {
        audioMs: 0,
        wallMs: 0,
        cpuMs: 0,
        rssKb: null,
        peakKb: null,
        meetings: 0,
      };
      const heard: string[] = [];
      const meetingIds = new Set<string>();
      for (const utterance of utterances) {
        const context: RecognitionContext | undefined =
          pass === 'with'
            ? { meetingId: utterance.meetingId, vocabulary: utterance.meeting.vocabulary }
            : undefined;
        if (context) meetingIds.add(context.meetingId);
        const pid = recognizer.sidecarPid;
        const cpuBefore = cpuMsOf(pid);
        const started = performance.now();
        heard.push(await recognise(recognizer, utterance.pcm, context));
        cost.wallMs += performance.now() - started;
        const cpuAfter = recognizer.sidecarPid === pid ? cpuMsOf(pid) : null;
        cost.cpuMs =
          cost.cpuMs === null || cpuBefore === null || cpuAfter === null
            ? null
            : cost.cpuMs + cpuAfter - cpuBefore;
        cost.audioMs += (utterance.pcm.length / 2 / INPUT_SAMPLE_RATE) * 1000;
      }
      const memory = memoryOf(recognizer.sidecarPid);
      cost.rssKb = memory?.rssKb ?? null;
      cost.peakKb = memory?.peakKb ?? null;
      cost.meetings = meetingIds.size;
      byPass[pass] = { heard, cost };
    }
  } finally {
    await recognizer.close();
  }

  const samples = utterances.map((utterance, index): Sample => {
    const reference = normalizeWords(utterance.said);
    const heard = { without: byPass.without.heard[index]!, with: byPass.with.heard[index]! };
    return {
      source: utterance.source,
      family: utterance.family,
      human: utterance.human,
      meeting: utterance.meeting.id,
      inDomain: utterance.inDomain,
      said: utterance.said,
      words: reference.length,
      audioMs: (utterance.pcm.length / 2 / INPUT_SAMPLE_RATE) * 1000,
      heard,
      edits: {
        without: wordEditDistance(reference, normalizeWords(heard.without)),
        with: wordEditDistance(reference, normalizeWords(heard.with)),
      },
    };
  });
  return { samples, skipped, cost: { without: byPass.without.cost, with: byPass.with.cost } };
}

async function humanUtterance(clip: HumanClip, meeting: SetMeeting): Promise<Utterance> {
  return {
    source: `human/${clip.corpus}`,
    family: 'human',
    human: true,
    meeting,
    meetingId: `human-${clip.corpus}/${meeting.id}`,
    inDomain: false,
    said: clip.transcript,
    pcm: await clip.pcm(),
  };
}

/** Streams the audio in 100 ms chunks, as the room's frames arrive, and waits for the final text. */
async function recognise(
  recognizer: PocketSphinxRecognizer,
  pcm: Buffer,
  context?: RecognitionContext,
): Promise<string> {
  const stream = recognizer.start(context ? { language: 'en-US', context } : { language: 'en-US' });
  for (const chunk of chunksOf(pcm, 100)) stream.write(chunk);
  return (await stream.finish()).text;
}

let clockTicks: number | null = null;

/** utime + stime (+ its waited-for children) of a process, in ms; null without /proc. */
function cpuMsOf(pid: number | null): number | null {
  if (pid === null) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after "(comm)": state is field 3, utime 14, stime 15, cutime 16, cstime 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
    clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    return (ticks * 1000) / clockTicks;
  } catch {
    return null;
  }
}

function memoryOf(pid: number | null): { rssKb: number; peakKb: number } | null {
  if (pid === null) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1]);
    return { rssKb: field('VmRSS'), peakKb: field('VmHWM') };
  } catch {
    return null;
  }
}

/** Total edits / total words of a group of samples, in one pass. */
export function groupWer(samples: readonly Sample[], pass: Pass): { wer: number; words: number } | null {
  const words = samples.reduce((sum, sample) => sum + sample.words, 0);
  if (words === 0) return null;
  return { wer: samples.reduce((sum, sample) => sum + sample.edits[pass], 0) / words, words };
}

const fixed = (value: number | null | undefined, digits = 3) =>
  value === null || value === undefined ? '–' : value.toFixed(digits);

function printRow(label: string, samples: readonly Sample[]): void {
  if (samples.length > 0) console.log(werRow(label, samples));
}

function werRow(label: string, samples: readonly Sample[]): string {
  const cells: string[] = [];
  for (const pass of PASSES) {
    for (const part of [
      samples.filter((sample) => sample.inDomain),
      samples.filter((sample) => !sample.inDomain),
      samples,
    ]) {
      cells.push(fixed(groupWer(part, pass)?.wer).padStart(7));
    }
    cells.push('  ');
  }
  const all = { without: groupWer(samples, 'without'), with: groupWer(samples, 'with') };
  const change = all.without && all.with ? ratio(all.with.wer, all.without.wer) : '–';
  return `  ${label.padEnd(30)}${cells.join('')}${change.padStart(6)}  ${String(all.without?.words ?? 0).padStart(6)}`;
}

/** The table bench/voice prints (docs/performance.md, "Voice"). */
export function printSpeechSet(run: SpeechSetRun, meetings: readonly SetMeeting[]): void {
  const voiced = run.samples.filter((sample) => !sample.human);
  const human = run.samples.filter((sample) => sample.human);
  const sentences = meetings.flatMap((meeting) => meeting.sentences);
  const inDomain = sentences.filter((sentence) => sentence.inDomain).length;
  const voices = [...new Set(voiced.map((sample) => sample.source))];
  console.log(
    `\nword error rate of the offline recogniser on the speech test set: ${sentences.length} sentences in` +
      ` ${meetings.length} meetings (${inDomain} in-domain, ${sentences.length - inDomain} out) × ${voices.length}` +
      ` voices, ${human.length} human recordings; each utterance recognised without a context and with its meeting's`,
  );
  for (const reason of run.skipped) console.log(`  skipped ${reason}`);
  const head = (label: string) => `${label.padStart(21)}${''.padStart(2)}`;
  console.log(`  ${''.padEnd(30)}${head('without context')}${head("with the meeting's")}with/without  words`);
  const columns = `${['in', 'out', 'all'].map((column) => column.padStart(7)).join('')}  `;
  console.log(`  ${''.padEnd(30)}${columns}${columns}${'(all)'.padStart(6)}`);
  for (const voice of voices)
    printRow(
      voice,
      voiced.filter((sample) => sample.source === voice),
    );
  for (const family of [...new Set(voiced.map((sample) => sample.family))]) {
    printRow(
      `all ${family}`,
      voiced.filter((sample) => sample.family === family),
    );
  }
  printRow(
    'all voices but Flite',
    voiced.filter((sample) => sample.family !== 'flite'),
  );
  printRow('all voices', voiced);
  for (const meeting of meetings) {
    const label = `${meeting.id} (${meeting.seeded ? 'seeded' : 'not seeded'})`;
    printRow(
      label,
      voiced.filter((sample) => sample.meeting === meeting.id),
    );
  }
  for (const source of [...new Set(human.map((sample) => sample.source))]) {
    printRow(
      source,
      human.filter((sample) => sample.source === source),
    );
  }
  if (human.length > 0) printRow('human, all', human);

  for (const pass of PASSES) {
    const cost = run.cost[pass];
    const seconds = cost.audioMs / 1000;
    const cpu = cost.cpuMs === null ? null : cost.cpuMs / cost.audioMs;
    console.log(
      `  ${pass === 'with' ? "with the meeting's context" : 'without context'}: ${seconds.toFixed(0)} s of audio;` +
        ` recognition CPU (the sidecar) ${fixed(cpu)} s per s of audio, wall ${fixed(cost.wallMs / cost.audioMs)} s;` +
        ` one core carries ≈ ${cpu ? (1 / cpu).toFixed(1) : '–'} speakers at once;` +
        ` sidecar RSS ${fixed(cost.rssKb === null ? null : cost.rssKb / 1024, 0)} MB after the pass` +
        ` (peak ${fixed(cost.peakKb === null ? null : cost.peakKb / 1024, 0)} MB; ${cost.meetings} meetings named)`,
    );
  }
  const { without, with: withContext } = run.cost;
  if (without.cpuMs !== null && withContext.cpuMs !== null) {
    console.log(`  CPU with / without context: ${ratio(withContext.cpuMs, without.cpuMs)}`);
  }

  const misheard = voiced.filter((sample) => sample.inDomain && (sample.edits.without || sample.edits.with));
  printMisheard(
    `in-domain sentences misheard in either pass (${misheard.length} of ${voiced.filter((s) => s.inDomain).length})`,
    misheard,
  );
  printMisheard(
    'human recordings misheard in either pass',
    human.filter((sample) => sample.edits.without || sample.edits.with),
  );
}

function printMisheard(title: string, samples: readonly Sample[]): void {
  console.log(`\n  ${title}:`);
  for (const sample of samples) {
    const same = sample.heard.with === sample.heard.without;
    console.log(
      `    ${sample.source}: "${sample.said}"\n      → "${sample.heard.without}"` +
        (same ? ' (the same with context)' : `\n      with context → "${sample.heard.with}"`),
    );
  }
}
