// Sentences with a pause inside, as people make them: "I went to the store and … bought milk".
// Synthesising the two halves apart would give the first a sentence's final fall; instead the whole
// sentence is spoken once by Flite (in this thread, through the service's WASI shim, with `-psdur`
// so it prints each phone's end time) and silence is inserted at the end of the chosen word, which
// keeps the melody of a sentence that goes on. Where the word ends is found by speaking the words up
// to it alone and counting their phones (Flite's post-lexical rules do not change the count).
import { compileFlite, type FliteVoice } from '../../src/platform/speech/tts/flite-wasi.ts';
import { runWasiCommand } from '../../src/platform/speech/tts/wasi-shim.ts';
import { INPUT_SAMPLE_RATE } from '../../src/platform/speech/types.ts';
import { decodeWav, resamplePcm } from '../../src/platform/speech/wav.ts';

export interface Phone {
  phone: string;
  /** End time in seconds from the start of the audio. */
  end: number;
}

export interface TimedSpeech {
  /** PCM s16le mono 16 kHz. */
  pcm: Buffer;
  phones: Phone[];
}

/** Flite's speech of `text` and the end time of every phone (pauses are `pau`). */
export async function timedSpeech(text: string, voice: FliteVoice): Promise<TimedSpeech> {
  // A pending in-thread WebAssembly.instantiate does not keep the event loop alive on its own.
  const keepAlive = setInterval(() => {}, 1000);
  try {
    const run = await runWasiCommand(
      await compileFlite(),
      ['flite', '-voice', voice, '-psdur', '-t', text, '/out/speech.wav'],
      '/out',
    );
    const wav = run.files.get('speech.wav');
    if (run.exitCode !== 0 || !wav) throw new Error(`flite failed on "${text}"`);
    const audio = decodeWav(wav);
    const phones = run.stdout
      .trim()
      .split(/\s+/)
      .map((entry) => {
        const [phone, end] = entry.split(':');
        return { phone: phone!, end: Number(end) };
      });
    return { pcm: resamplePcm(audio.pcm, audio.sampleRate, INPUT_SAMPLE_RATE), phones };
  } finally {
    clearInterval(keepAlive);
  }
}

const spoken = (phones: Phone[]) => phones.filter((p) => p.phone !== 'pau');

/**
 * `text` spoken whole with `pauseMs` of silence after its first `words` words (any pause Flite
 * made there, at a comma, is replaced by it). `pauseAt` is where the pause begins, in ms.
 */
export async function pausedSpeech(
  text: string,
  words: number,
  pauseMs: number,
  voice: FliteVoice,
): Promise<{ pcm: Buffer; pauseAtMs: number }> {
  const whole = await timedSpeech(text, voice);
  const prefix = text.split(/\s+/).slice(0, words).join(' ');
  const count = spoken((await timedSpeech(prefix, voice)).phones).length;
  const phones = spoken(whole.phones);
  if (count === 0 || count >= phones.length) throw new Error(`cannot pause "${text}" after ${words} words`);
  const boundary = phones[count - 1]!.end;
  // Flite's own pause there (a comma) ends where the next word's first phone begins.
  const index = whole.phones.indexOf(phones[count - 1]!);
  const next = whole.phones[index + 1]?.phone === 'pau' ? whole.phones[index + 1]!.end : boundary;
  const at = (seconds: number) => Math.round(seconds * INPUT_SAMPLE_RATE) * 2;
  const silence = Buffer.alloc(at(pauseMs / 1000));
  return {
    pcm: Buffer.concat([whole.pcm.subarray(0, at(boundary)), silence, whole.pcm.subarray(at(next))]),
    pauseAtMs: Math.round(boundary * 1000),
  };
}
