// Noise on the participant's microphone, made with sox at test time (nothing is committed): a
// steady tone, a fan, a rumble, music and typing, as PCM s16le mono 16 kHz like the room's stream,
// and speech mixed over them at a chosen signal-to-noise ratio. sox comes with
// scripts/ensure-speech.sh; `soxMissing` says why a test skips when it is not installed.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { INPUT_SAMPLE_RATE } from '../../src/platform/speech/types.ts';
import { decodeWav } from '../../src/platform/speech/wav.ts';

const run = promisify(execFile);
const SOX = '/usr/bin/sox';
const FORMAT = ['-r', String(INPUT_SAMPLE_RATE), '-b', '16', '-c', '1', '-e', 'signed-integer'];

export const soxMissing: string | false = existsSync(SOX)
  ? false
  : `sox is not installed (run scripts/ensure-speech.sh)`;

export type NoiseKind = 'tone' | 'fan' | 'rumble' | 'music' | 'keyboard';
export const NOISE_KINDS: NoiseKind[] = ['tone', 'fan', 'rumble', 'music', 'keyboard'];

/** What each noise stands for, for test names. */
export const NOISE_NAMES: Record<NoiseKind, string> = {
  tone: 'a steady 440 Hz tone',
  fan: 'a fan (pink noise, band-limited, slowly swelling)',
  rumble: 'a rumble (brown noise: an engine, a road)',
  music: 'music (a plucked melody, four notes a second, over chords)',
  keyboard: 'typing (key clicks 60–280 ms apart)',
};

/** Runs sox with `args` writing a 16 kHz mono WAV, and returns its PCM. */
async function sox(dir: string, name: string, args: string[]): Promise<Buffer> {
  const path = join(dir, `${name}.wav`);
  await run(SOX, ['-n', ...FORMAT, path, ...args]);
  return decodeWav(readFileSync(path)).pcm;
}

const MELODY = [
  'E4',
  'G4',
  'A4',
  'B4',
  'A4',
  'G4',
  'E4',
  'D4',
  'C4',
  'D4',
  'E4',
  'G4',
  'E4',
  'D4',
  'C4',
  'A3',
];
const CHORDS = [
  ['C3', 'E3', 'G3'],
  ['A2', 'C3', 'E3'],
  ['F2', 'A2', 'C3'],
  ['G2', 'B2', 'D3'],
];

/** `ms` of one kind of noise at its natural loudness (each about -10 to -25 dBFS RMS). */
export async function soxNoisePcm(kind: NoiseKind, ms: number): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'understudy-noise-'));
  try {
    const seconds = (ms / 1000).toFixed(3);
    if (kind === 'tone') return await sox(dir, kind, ['synth', seconds, 'sine', '440', 'vol', '0.3']);
    if (kind === 'fan')
      return await sox(dir, kind, [
        'synth',
        seconds,
        'pinknoise',
        'lowpass',
        '3000',
        'highpass',
        '80',
        'tremolo',
        '0.5',
        '10',
        'vol',
        '0.6',
      ]);
    if (kind === 'rumble') return await sox(dir, kind, ['synth', seconds, 'brownnoise', 'vol', '0.5']);
    if (kind === 'music') return repeatTo(await music(dir), ms);
    return keyboard(await sox(dir, 'click', clickArgs()), ms);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function clickArgs(): string[] {
  return ['synth', '0.012', 'whitenoise', 'highpass', '800', 'fade', '0', '0.012', '0.011', 'vol', '0.7'];
}

/** 20 s: a plucked melody (0.25 s a note, 4 s) five times over sawtooth chords (1.67 s each, 6.7 s) three times. */
async function music(dir: string): Promise<Buffer> {
  const notes = new Map<string, Buffer>();
  for (const note of new Set(MELODY))
    notes.set(note, await sox(dir, `note-${note}`, ['synth', '0.25', 'pluck', note, 'vol', '0.5']));
  const bar = Buffer.concat(MELODY.map((note) => notes.get(note)!));
  const melody = Buffer.concat([bar, bar, bar, bar, bar]);
  const chords: Buffer[] = [];
  for (const [index, chord] of CHORDS.entries()) {
    // Three sawtooth voices, one per channel, then mixed down to one.
    const path = join(dir, `chord-${index}.wav`);
    await run(SOX, [
      '-n',
      '-r',
      String(INPUT_SAMPLE_RATE),
      '-b',
      '16',
      '-c',
      '3',
      '-e',
      'signed-integer',
      path,
      'synth',
      '1.667',
      ...chord.flatMap((note) => ['sawtooth', note]),
      'vol',
      '0.1',
    ]);
    const mono = join(dir, `chord-${index}-mono.wav`);
    await run(SOX, [path, ...FORMAT, mono, 'remix', '-', 'lowpass', '1200', 'fade', '0.05', '1.667', '0.1']);
    chords.push(decodeWav(readFileSync(mono)).pcm);
  }
  const bed = Buffer.concat([...chords, ...chords, ...chords]);
  const length = Math.min(melody.length, bed.length);
  return mixPcm(melody.subarray(0, length), bed.subarray(0, length));
}

/** Clicks of varying strength at pseudo-random intervals of 60–280 ms (the same every run). */
function keyboard(click: Buffer, ms: number): Buffer {
  const samples = Math.round((INPUT_SAMPLE_RATE * ms) / 1000);
  const out = Buffer.alloc(samples * 2);
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  for (let at = 0; at < samples; at += Math.round((INPUT_SAMPLE_RATE * (60 + 220 * random())) / 1000)) {
    const gain = 0.3 + 0.7 * random();
    for (let i = 0; i < click.length / 2 && at + i < samples; i++)
      out.writeInt16LE(Math.round(click.readInt16LE(i * 2) * gain), (at + i) * 2);
  }
  return out;
}

function repeatTo(pcm: Buffer, ms: number): Buffer {
  const bytes = Math.round((INPUT_SAMPLE_RATE * ms) / 1000) * 2;
  const out = Buffer.alloc(bytes);
  for (let at = 0; at < bytes; at += pcm.length) pcm.copy(out, at, 0, Math.min(pcm.length, bytes - at));
  return out;
}

function mixPcm(a: Buffer, b: Buffer): Buffer {
  const out = Buffer.alloc(Math.max(a.length, b.length));
  for (let at = 0; at < out.length; at += 2) {
    const value = (at < a.length ? a.readInt16LE(at) : 0) + (at < b.length ? b.readInt16LE(at) : 0);
    out.writeInt16LE(clamp(value), at);
  }
  return out;
}

const clamp = (value: number) => Math.max(-32768, Math.min(32767, Math.round(value)));

function rms(pcm: Buffer): number {
  let sum = 0;
  for (let at = 0; at < pcm.length; at += 2) sum += pcm.readInt16LE(at) ** 2;
  return Math.sqrt(sum / Math.max(1, pcm.length / 2));
}

/** RMS of speech where it is active: its 20 ms frames within 30 dB of the loudest. */
export function activeRms(speech: Buffer): number {
  const frames: number[] = [];
  for (let at = 0; at + 640 <= speech.length; at += 640) frames.push(rms(speech.subarray(at, at + 640)));
  const loudest = Math.max(...frames);
  const active = frames.filter((value) => value > loudest / 31.6);
  return Math.sqrt(active.reduce((sum, value) => sum + value * value, 0) / active.length);
}

/**
 * `speech` starting `leadMs` into `noise` (looped as needed) and followed by `tailMs` more of it,
 * the noise scaled to `snrDb` under the speech's active level.
 */
export function speechOverNoise(
  speech: Buffer,
  noise: Buffer,
  snrDb: number,
  leadMs: number,
  tailMs: number,
): Buffer {
  const lead = Math.round((INPUT_SAMPLE_RATE * leadMs) / 1000);
  const samples = lead + speech.length / 2 + Math.round((INPUT_SAMPLE_RATE * tailMs) / 1000);
  const gain = activeRms(speech) / rms(noise) / 10 ** (snrDb / 20);
  const out = Buffer.alloc(samples * 2);
  const noiseSamples = noise.length / 2;
  for (let i = 0; i < samples; i++) {
    let value = noise.readInt16LE((i % noiseSamples) * 2) * gain;
    const s = i - lead;
    if (s >= 0 && s < speech.length / 2) value += speech.readInt16LE(s * 2);
    out.writeInt16LE(clamp(value), i * 2);
  }
  return out;
}
