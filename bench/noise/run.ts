// Noise on the microphone (issue 29): what the segmenter's models cost and what they leave of the
// recognition. Noise is made with sox at run time (server/test/speech/noise-fixtures.ts).
//
// 1. CPU per second of audio, in this process (process.cpuUsage, 60 s of speech over a fan pushed
//    in 40 ms chunks as the room sends them): the WebRTC VAD alone, RNNoise alone (both halves of
//    every 20 ms frame, upsampled to 48 kHz), and the whole segmenter.
// 2. Word error rate of PocketSphinx (through the service's adapter and sidecar) on four sentences
//    spoken by Flite with 1.5 s between them, alone and over each noise at 15 and 10 dB SNR: the
//    audio goes through the segmenter and each utterance it cuts is recognised, as in a meeting
//    (an utterance declared noise is dropped). With and without the suppressed audio for the
//    recogniser (suppressNoise). PocketSphinx adapts its cepstral mean from one utterance to the
//    next, so a figure moves by a word or two (0.02–0.05) between runs.
//
//   npx tsx bench/noise/run.ts            both parts
//   WER=0 npx tsx bench/noise/run.ts      CPU only
import pino from 'pino';
import { RNNoiseStream } from '../../server/src/platform/speech/rnnoise.ts';
import { type SegmentEvent, SpeechSegmenter } from '../../server/src/platform/speech/segmenter.ts';
import {
  createPocketSphinxRecognizer,
  detectPocketSphinx,
} from '../../server/src/platform/speech/stt/pocketsphinx.ts';
import type { RecognitionStream } from '../../server/src/platform/speech/types.ts';
import { wordErrorRate } from '../../server/src/platform/speech/wer.ts';
import { chunksOf, silencePcm, spokenPcm } from '../../server/test/speech/audio-fixtures.ts';
import {
  NOISE_KINDS,
  soxMissing,
  soxNoisePcm,
  speechOverNoise,
} from '../../server/test/speech/noise-fixtures.ts';
import { MEETING_SENTENCES } from '../../server/test/speech/sentences.ts';

if (soxMissing) {
  console.error(soxMissing);
  process.exit(1);
}

const sentences = MEETING_SENTENCES.slice(0, 4);
const parts: Buffer[] = [];
for (const [index, text] of sentences.entries()) {
  if (index > 0) parts.push(silencePcm(1500));
  parts.push(await spokenPcm(text, 'rms'));
}
const speech = Buffer.concat(parts);
const reference = sentences.join(' ');

// ---- 1. CPU
const fan = await soxNoisePcm('fan', 20_000);
const minute: Buffer[] = [];
let minuteMs = 0;
while (minuteMs < 60_000) {
  const piece = speechOverNoise(speech, fan, 10, 1000, 1000);
  minute.push(piece);
  minuteMs += piece.length / 32;
}
const audio = Buffer.concat(minute);
const audioSeconds = audio.length / 32_000;

function cpuMsPerAudioSecond(work: () => void): number {
  work(); // warm up (JIT, WASM tiers)
  const rounds = 3;
  const before = process.cpuUsage();
  for (let round = 0; round < rounds; round++) work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / (rounds * audioSeconds);
}

const fvad = (await import('@echogarden/fvad-wasm')).default as () => Promise<{
  HEAPU8: Uint8Array;
  _fvad_new(): number;
  _fvad_set_mode(handle: number, mode: number): number;
  _fvad_set_sample_rate(handle: number, rate: number): number;
  _fvad_process(handle: number, frame: number, samples: number): number;
  _malloc(bytes: number): number;
}>;
const vad = await fvad();
const handle = vad._fvad_new();
vad._fvad_set_mode(handle, 3);
vad._fvad_set_sample_rate(handle, 16_000);
const frameAt = vad._malloc(640);
const vadMs = cpuMsPerAudioSecond(() => {
  for (let at = 0; at + 640 <= audio.length; at += 640) {
    vad.HEAPU8.set(audio.subarray(at, at + 640), frameAt);
    vad._fvad_process(handle, frameAt, 320);
  }
});
const rnnoise = await RNNoiseStream.create();
const rnnoiseMs = cpuMsPerAudioSecond(() => {
  for (let at = 0; at + 640 <= audio.length; at += 640) rnnoise.process(audio.subarray(at, at + 640));
});
rnnoise.dispose();
const segmenter = await SpeechSegmenter.create();
const wholeMs = cpuMsPerAudioSecond(() => {
  for (const chunk of chunksOf(audio, 40)) segmenter.push(chunk);
});
segmenter.dispose();
console.log(`CPU per second of audio (${audioSeconds.toFixed(0)} s of speech over a fan, three rounds):`);
console.log(`  WebRTC VAD alone      ${vadMs.toFixed(2)} ms`);
console.log(`  RNNoise alone         ${rnnoiseMs.toFixed(2)} ms`);
console.log(`  the whole segmenter   ${wholeMs.toFixed(2)} ms (${(wholeMs / 10).toFixed(2)} % of one core)`);

// ---- 2. Word error rate
if (process.env.WER === '0') process.exit(0);
const sphinx = await detectPocketSphinx();
if (!sphinx.available) {
  console.log(`WER skipped: ${sphinx.reason}`);
  process.exit(0);
}
const recognizer = createPocketSphinxRecognizer({
  modelDir: sphinx.modelDir,
  logger: pino({ level: 'silent' }),
  finishTimeoutMs: 120_000,
});

async function recognise(
  input: Buffer,
  suppressNoise: boolean,
): Promise<{ wer: number; utterances: number }> {
  const cutter = await SpeechSegmenter.create({ suppressNoise });
  const texts: Array<Promise<string>> = [];
  let stream: RecognitionStream | null = null;
  let utterances = 0;
  const handleEvents = (events: SegmentEvent[]) => {
    for (const event of events) {
      if (event.type === 'start') {
        stream = recognizer.start({ language: 'en-US' });
        utterances += 1;
      } else if (event.type === 'audio') stream?.write(event.pcm);
      else if (stream) {
        if (event.noise) stream.cancel();
        else texts.push(stream.finish().then((result) => result.text));
        stream = null;
      }
    }
  };
  for (const chunk of chunksOf(input, 40)) handleEvents(cutter.push(chunk));
  handleEvents(cutter.flush());
  cutter.dispose();
  const heard = (await Promise.all(texts)).join(' ');
  return { wer: wordErrorRate(reference, heard), utterances };
}

const conditions: Array<[string, Buffer]> = [
  ['clean', Buffer.concat([silencePcm(2000), speech, silencePcm(2000)])],
];
for (const kind of NOISE_KINDS) {
  const noise = await soxNoisePcm(kind, 20_000);
  for (const snr of [15, 10])
    conditions.push([`${kind} ${snr} dB`, speechOverNoise(speech, noise, snr, 2000, 2000)]);
}
console.log(`\nWER, ${sentences.length} sentences (Flite rms), segmenter → PocketSphinx:`);
console.log(`${'condition'.padEnd(16)}${'suppressed where it helps'.padEnd(30)}microphone audio`);
for (const [label, input] of conditions) {
  const cells: string[] = [];
  for (const suppressNoise of [true, false]) {
    const { wer, utterances } = await recognise(input, suppressNoise);
    cells.push(`${wer.toFixed(3)} (${utterances} utterances)`.padEnd(30));
  }
  console.log(`${label.padEnd(16)}${cells.join('')}`);
}
await recognizer.close();
