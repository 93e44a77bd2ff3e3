// bench/voice: the voice loop, measured (issue 14, point 5; docs/performance.md "Voice").
//
// (1) Latency, for the offline engines (PocketSphinx + Flite) and for a loopback
//     OpenAI-compatible speech server: a participant speaks fixed sentences (made with Flite at run
//     time) into a meeting over the room's WebSocket in real time and waits for the persona's
//     voice after each; the persona's replies come from a customer's agent on loopback. End of
//     speech → first persona audio byte at the client, p50/p99, and the platform's own share of
//     it: without the end-of-speech silence, the recognition, the agent's reply and the synthesis
//     (latency.ts explains the split). Baseline in the same run: a bare WebSocket round trip on
//     loopback (microphone frame → audio frame), whose two hops the share also holds.
//     Target: platform share p50 < 20 ms.
// (2) Word error rate of the offline recogniser on the speech test set (wer.ts): role-play sentences
//     spoken by festival, espeak-ng and the Flite voices, and real human recordings, each recognised
//     without a context and with its meeting's; per voice, in total, in-domain and not; and the
//     recogniser's CPU per second of audio.
//
// Usage: npx tsx bench/voice/run.ts
//   UTTERANCES (default 20, plus 2 warm-up), CONFIGS=offline,openai (default both), LATENCY=0 skips
//   (1), WER=0 skips (2), VOICES=flite-rms,festival-kal… limits (2) to those voices (ids in
//   server/test/speech/speech-voices.ts), HUMAN=0 leaves the human recordings out;
//   DATABASE_URL optional (else a throwaway database on the local PostgreSQL). Needs PocketSphinx
//   for the offline configuration and the word error rate, and the test set's voices for (2)
//   (scripts/ensure-speech.sh installs both; a missing voice is skipped with the reason).
import type { ChildProcess } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { normalizeWords, wordEditDistance } from '../../server/src/platform/speech/wer.ts';
import { spokenPcm } from '../../server/test/speech/audio-fixtures.ts';
import { SPEECH_SET } from '../../server/test/speech/speech-set.ts';
import { TEST_VOICES } from '../../server/test/speech/speech-voices.ts';
import { startChild, stopChild } from '../lib/child.ts';
import { benchDatabaseUrl, ratio } from '../lib/postgres.ts';
import { deadline, fmt, percentile } from '../live/lib.ts';
import { measureBaseline } from './baseline.ts';
import { measureLatency, type Utterance, type UtteranceSample, type VoiceServerInfo } from './latency.ts';
import { PARTICIPANT_VOICES, SENTENCES } from './sentences.ts';
import { measureSpeechSet, printSpeechSet } from './wer.ts';

const UTTERANCES = Number(process.env.UTTERANCES ?? 20);
const WARMUP = 2;
const BASELINE_SAMPLES = 300;
const CONFIGS = (process.env.CONFIGS ?? 'offline,openai').split(',').filter(Boolean);
const LIMIT_MS = 75 * 60_000;
const TARGET_P50_MS = 20;
/** What the loopback OpenAI-compatible recogniser answers for every utterance. */
const LOOPBACK_TRANSCRIPT = SENTENCES[0];

const ENGINE_ENV: Record<string, (speechUrl: string) => Record<string, string>> = {
  offline: () => ({ STT_ENGINE: 'pocketsphinx', TTS_ENGINE: 'flite' }),
  openai: (speechUrl) => ({
    STT_ENGINE: 'openai',
    STT_BASE_URL: speechUrl,
    TTS_ENGINE: 'openai',
    TTS_BASE_URL: speechUrl,
  }),
};

const limit = deadline(LIMIT_MS, 'voice benchmark');
const children: ChildProcess[] = [];
const databases: Array<() => void> = [];

async function participantAudio(): Promise<Utterance[]> {
  const utterances: Utterance[] = [];
  for (let i = 0; i < UTTERANCES + WARMUP; i += 1) {
    const text = SENTENCES[i % SENTENCES.length]!;
    // Ten sentences in one voice, then the next ten in the other.
    const voice = PARTICIPANT_VOICES[Math.floor(i / SENTENCES.length) % PARTICIPANT_VOICES.length]!;
    utterances.push({ text, voice, pcm: await spokenPcm(text, voice) });
  }
  return utterances;
}

async function baseline(): Promise<number[]> {
  const { info, child } = await startChild<{ base: string }>('bench/voice/echo-server.ts', {});
  children.push(child);
  try {
    return await measureBaseline(info.base, BASELINE_SAMPLES, 30);
  } finally {
    await stopChild(child);
  }
}

async function runConfig(name: string, agentUrl: string, utterances: Utterance[]) {
  let speechUrl = '';
  if (name === 'openai') {
    const speech = await startChild<{ baseUrl: string }>('bench/voice/speech-server.ts', {
      TRANSCRIPT: LOOPBACK_TRANSCRIPT,
    });
    children.push(speech.child);
    speechUrl = speech.info.baseUrl;
  }
  const { url, drop } = benchDatabaseUrl(`voice_${name}`);
  databases.push(drop);
  const { info, child } = await startChild<VoiceServerInfo>('bench/voice/server.ts', {
    DATABASE_URL: url,
    AGENT_URL: agentUrl,
    ...ENGINE_ENV[name]!(speechUrl),
  });
  children.push(child);
  try {
    return { info, results: await measureLatency(info, agentUrl, utterances, WARMUP) };
  } finally {
    await stopChild(child);
  }
}

function line(label: string, values: number[]): string {
  return `  ${label.padEnd(44)} p50 ${fmt(percentile(values, 50)).padStart(10)}  p99 ${fmt(percentile(values, 99)).padStart(10)}`;
}

function report(
  name: string,
  info: VoiceServerInfo,
  results: Awaited<ReturnType<typeof measureLatency>>,
  base: number[],
) {
  const samples = results.filter((r): r is UtteranceSample => !r.missed);
  const pick = (key: keyof UtteranceSample) => samples.map((s) => s[key] as number);
  console.log(
    `\nvoice loop, ${name}: ${info.recognizer} → ${info.synthesizer}; ${samples.length} utterances answered` +
      ` of ${results.length}; end-of-speech silence ${info.endSilenceMs} ms`,
  );
  if (samples.length === 0) return;
  const platform = pick('platformMs');
  console.log(line('end of speech → first audio byte', pick('totalMs')));
  console.log(line('  end-of-speech silence (policy)', pick('endpointMs')));
  console.log(line('  end detected → first audio byte', pick('afterMs')));
  console.log(line('    recognition (final, after the end)', pick('recognitionMs')));
  console.log(line('    reply (the agent, to its first byte)', pick('replyMs')));
  console.log(line('    synthesis (first sentence)', pick('synthesisMs')));
  console.log(line("    platform's own share", platform));
  console.log(line('      frame in → recognition finishing', pick('inboundMs')));
  console.log(line('      final text → agent has the request', pick('toAgentMs')));
  console.log(line("      agent's first byte → synthesis called", pick('fromAgentMs')));
  console.log(line('      audio ready → at the client', pick('outboundMs')));
  console.log(line('baseline: bare WebSocket round trip', base));
  const p50 = percentile(platform, 50);
  console.log(
    `  ${'ratio share / baseline'.padEnd(44)} p50 ${ratio(p50, percentile(base, 50))}  p99 ${ratio(
      percentile(platform, 99),
      percentile(base, 99),
    )}`,
  );
  console.log(`  target share p50 < ${TARGET_P50_MS} ms: ${p50 < TARGET_P50_MS ? 'met' : 'NOT met'}`);
  const fresh = samples.filter((s) => s.newConnection).length;
  console.log(`  the agent call opened a new connection in ${fresh} of ${samples.length} turns`);
  const mismatched = samples.filter((s) => s.segmentMismatchMs > 0).length;
  if (mismatched > 0) console.log(`  note: ${mismatched} utterances segmented differently by the server`);
  if (name === 'offline') {
    const pairs = results.map((r) => [normalizeWords(r.said), normalizeWords(r.heard)] as const);
    const edits = pairs.reduce((sum, [said, heard]) => sum + wordEditDistance(said, heard), 0);
    const words = pairs.reduce((sum, [said]) => sum + said.length, 0);
    console.log(
      `  recognised through the loop: WER ${((edits / words) * 100).toFixed(1)} % over ${words} words`,
    );
  }
}

try {
  await Promise.race([
    (async () => {
      console.log(
        `bench/voice on ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)} before the run;` +
          ` ${UTTERANCES} utterances (+${WARMUP} warm-up) per configuration`,
      );
      if (process.env.LATENCY !== '0') {
        const utterances = await participantAudio();
        const base = await baseline();
        const agent = await startChild<{ url: string }>('bench/voice/agent-server.ts', {});
        children.push(agent.child);
        for (const name of CONFIGS) {
          const { info, results } = await runConfig(name, agent.info.url, utterances);
          report(name, info, results, base);
        }
      }
      if (process.env.WER !== '0') {
        const only = process.env.VOICES?.split(',').filter(Boolean);
        const voices = only ? TEST_VOICES.filter((voice) => only.includes(voice.id)) : TEST_VOICES;
        const started = performance.now();
        const run = await measureSpeechSet(SPEECH_SET, voices, { human: process.env.HUMAN !== '0' });
        if ('unavailable' in run) {
          console.log(`\nword error rate: skipped, PocketSphinx is not installed (${run.unavailable})`);
        } else {
          printSpeechSet(run, SPEECH_SET);
          console.log(
            `\nthe word error rate part took ${((performance.now() - started) / 60_000).toFixed(1)} min`,
          );
        }
      }
    })(),
    limit.promise,
  ]);
} finally {
  limit.cancel();
  for (const child of children) await stopChild(child);
  for (const drop of databases) drop();
}
