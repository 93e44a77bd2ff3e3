// The voices of the speech test set (speech-set.ts; docs/speech.md, "Speech test set"), made at
// test time from Debian's packages and never committed as audio: festival's two diphone voices and
// its HTS voice, espeak-ng, and the product's own Flite voices as the baseline; plus the human
// recordings of pocketsphinx-testdata with the transcripts that package ships. Everything comes out
// as PCM s16le mono 16 kHz, like the room's microphone stream (sox converts).
//
// Synthesised audio is cached under the system's temporary directory by a hash of engine, voice
// and text, so a second run (or a second test file) does not synthesise again.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FliteVoice } from '../../src/platform/speech/voices.ts';
import { spokenPcm } from './audio-fixtures.ts';

const run = promisify(execFile);

export type VoiceEngine = 'flite' | 'festival' | 'espeak-ng';

export interface TestVoice {
  /** Short and stable: the bench's row label, the cache key's part. */
  id: string;
  engine: VoiceEngine;
  /** The engine's own name for it. */
  name: string;
  /** What kind of voice, for the bench's subtotals. */
  family: 'flite' | 'festival diphone' | 'festival HTS' | 'espeak-ng';
  /** The Debian package it comes from (the skip reason names it). */
  debianPackage: string;
}

/** The product's own voices: the baseline the other voices are compared with. */
export const FLITE_TEST_VOICES: readonly TestVoice[] = (['rms', 'awb', 'slt', 'kal16'] as const).map(
  (name) => ({ id: `flite-${name}`, engine: 'flite', name, family: 'flite', debianPackage: '(embedded)' }),
);

/** Voices that are not the product's: what the recogniser has never been tuned on. */
export const OTHER_TEST_VOICES: readonly TestVoice[] = [
  {
    id: 'festival-kal',
    engine: 'festival',
    name: 'kal_diphone',
    family: 'festival diphone',
    debianPackage: 'festvox-kallpc16k',
  },
  {
    id: 'festival-ked',
    engine: 'festival',
    name: 'ked_diphone',
    family: 'festival diphone',
    debianPackage: 'festvox-kdlpc16k',
  },
  {
    id: 'festival-slt-hts',
    engine: 'festival',
    name: 'cmu_us_slt_arctic_hts',
    family: 'festival HTS',
    debianPackage: 'festvox-us-slt-hts',
  },
  { id: 'espeak-en-us', engine: 'espeak-ng', name: 'en-us', family: 'espeak-ng', debianPackage: 'espeak-ng' },
  {
    id: 'espeak-en-us-f3',
    engine: 'espeak-ng',
    name: 'en-us+f3',
    family: 'espeak-ng',
    debianPackage: 'espeak-ng',
  },
  { id: 'espeak-en-gb', engine: 'espeak-ng', name: 'en-gb', family: 'espeak-ng', debianPackage: 'espeak-ng' },
];

export const TEST_VOICES: readonly TestVoice[] = [...FLITE_TEST_VOICES, ...OTHER_TEST_VOICES];

const FESTIVAL_VOICES = '/usr/share/festival/voices';

function onPath(command: string): boolean {
  return (process.env.PATH ?? '/usr/bin:/bin')
    .split(':')
    .some((dir) => dir && existsSync(join(dir, command)));
}

/** Null when the voice can speak here, else why not (with the package to install). */
export function voiceUnavailable(voice: TestVoice): string | null {
  if (voice.engine === 'flite') return null;
  const install = `apt-get install ${voice.debianPackage} sox (scripts/ensure-speech.sh)`;
  if (!onPath('sox')) return `sox is not installed; ${install}`;
  if (voice.engine === 'espeak-ng')
    return onPath('espeak-ng') ? null : `espeak-ng is not installed; ${install}`;
  if (!onPath('text2wave')) return `festival is not installed; ${install}`;
  const languages = existsSync(FESTIVAL_VOICES) ? readdirSync(FESTIVAL_VOICES) : [];
  if (!languages.some((language) => existsSync(join(FESTIVAL_VOICES, language, voice.name)))) {
    return `festival voice ${voice.name} is not installed; ${install}`;
  }
  return null;
}

const CACHE = join(tmpdir(), 'understudy-speech-set');
let cacheReady: Promise<unknown> | null = null;

/** `text` spoken by `voice`, as the participant's microphone would send it (PCM s16le mono 16 kHz). */
export async function voicePcm(voice: TestVoice, text: string): Promise<Buffer> {
  if (voice.engine === 'flite') return spokenPcm(text, voice.name as FliteVoice);
  const key = createHash('sha256').update(`${voice.engine}\0${voice.name}\0${text}`).digest('hex');
  const cached = join(CACHE, `${key.slice(0, 40)}.pcm`);
  try {
    return await readFile(cached);
  } catch {
    // Not made yet.
  }
  cacheReady ??= mkdir(CACHE, { recursive: true });
  await cacheReady;
  const work = await mkdtemp(join(CACHE, 'work-'));
  try {
    const wav = join(work, 'speech.wav');
    if (voice.engine === 'festival') {
      const input = join(work, 'text.txt');
      await writeFile(input, `${text}\n`);
      await run('text2wave', ['-eval', `(voice_${voice.name})`, '-o', wav, input], { timeout: 60_000 });
    } else {
      await run('espeak-ng', ['-v', voice.name, '-w', wav, text], { timeout: 60_000 });
    }
    const pcm = await toMicrophonePcm(wav);
    // Written beside and renamed, so a concurrent reader never sees half a file.
    const partial = join(work, 'speech.pcm');
    await writeFile(partial, pcm);
    await rename(partial, cached);
    return pcm;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Any audio file sox reads (or raw PCM s16le 16 kHz mono with `raw`) → PCM s16le mono 16 kHz. */
async function toMicrophonePcm(path: string, raw = false): Promise<Buffer> {
  const input = raw ? ['-t', 'raw', '-r', '16000', '-e', 'signed-integer', '-b', '16', '-c', '1', '-L'] : [];
  const { stdout } = await run(
    'sox',
    [...input, path, '-t', 'raw', '-r', '16000', '-e', 'signed-integer', '-b', '16', '-c', '1', '-L', '-'],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
  );
  return stdout;
}

/** A real person's recording from pocketsphinx-testdata, with the transcript the package gives. */
export interface HumanClip {
  id: string;
  /** librivox: an audiobook read aloud; cards: playing cards said into a desk microphone; raw: short commands and digits. */
  corpus: 'librivox' | 'cards' | 'raw';
  transcript: string;
  /** The package file the transcript comes from (relative to the test data). */
  transcriptSource: string;
  pcm(): Promise<Buffer>;
}

export const POCKETSPHINX_TEST_DATA = '/usr/share/pocketsphinx/test/data';

/**
 * The human recordings whose transcript the package itself establishes; `skipped` says which
 * recordings were left out and why (no transcript in the package, or the package is missing).
 */
export async function humanClips(dataDir = POCKETSPHINX_TEST_DATA): Promise<{
  clips: HumanClip[];
  skipped: string[];
}> {
  if (!existsSync(dataDir)) {
    return {
      clips: [],
      skipped: [
        `pocketsphinx-testdata is not installed (${dataDir}); apt-get install pocketsphinx-testdata sox`,
      ],
    };
  }
  if (!onPath('sox')) return { clips: [], skipped: ['sox is not installed; apt-get install sox'] };
  const clips: HumanClip[] = [];
  const skipped: string[] = [];
  const file = (...parts: string[]) => join(dataDir, ...parts);
  const read = async (path: string) => readFile(file(path), 'utf8').catch(() => null);

  // Sphinx transcription files: "<s> words </s> (utterance id)" per line.
  for (const [corpus, transcription] of [
    ['librivox', 'librivox/transcription'],
    ['cards', 'cards/cards.transcription'],
  ] as const) {
    const text = await read(transcription);
    if (text === null) {
      skipped.push(`${corpus}: no ${transcription}`);
      continue;
    }
    for (const [, words, id] of text.matchAll(/^<s>\s*(.*?)\s*<\/s>\s*\(([^)]+)\)\s*$/gm)) {
      const wav = file(corpus, `${id}.wav`);
      if (!existsSync(wav)) continue;
      clips.push({
        id: `${corpus}/${id}`,
        corpus,
        transcript: words!.replace(/\s+/g, ' '),
        transcriptSource: transcription,
        pcm: () => toMicrophonePcm(wav),
      });
    }
  }

  // goforward.raw: the sentence is the grammar's own fixed rule (goforward.gram, `<move>`).
  const grammar = await read('goforward.gram');
  const move = grammar?.match(/public <move> = ([a-z ]+);/)?.[1];
  if (move && existsSync(file('goforward.raw'))) {
    clips.push({
      id: 'goforward.raw',
      corpus: 'raw',
      transcript: move,
      transcriptSource: 'goforward.gram',
      pcm: () => toMicrophonePcm(file('goforward.raw'), true),
    });
  } else skipped.push('goforward.raw: no transcript (goforward.gram has no <move> rule)');

  // tidigits/dhd.2934z.raw: TIDIGITS names a recording by the digits said (z zero, o oh) and then
  // a take letter; tidigits.lsn gives the words of another speaker's take of the same digits.
  const lsn = await read('tidigits/tidigits.lsn');
  const tidigits = existsSync(file('tidigits')) ? readdirSync(file('tidigits')) : [];
  for (const raw of tidigits.filter((name) => name.endsWith('.raw'))) {
    const digits = raw
      .replace(/\.raw$/, '')
      .split('.')
      .pop()!;
    const line = lsn
      ?.split('\n')
      .find((entry) => new RegExp(`\\([^.()]+\\.[^.()]+\\.${digits}[ab]\\)\\s*$`).test(entry));
    if (!line) {
      skipped.push(`tidigits/${raw}: no transcript (tidigits.lsn has no take of ${digits})`);
      continue;
    }
    clips.push({
      id: `tidigits/${raw}`,
      corpus: 'raw',
      transcript: line.replace(/\s*\([^)]*\)\s*$/, '').trim(),
      transcriptSource: 'tidigits/tidigits.lsn',
      pcm: () => toMicrophonePcm(file('tidigits', raw), true),
    });
  }

  for (const raw of readdirSync(dataDir).filter((name) => name.endsWith('.raw'))) {
    if (raw !== 'goforward.raw') skipped.push(`${raw}: no transcript in the package`);
  }
  return { clips, skipped };
}
