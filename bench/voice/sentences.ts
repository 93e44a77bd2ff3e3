// The fixed texts of bench/voice's latency runs: what the participant says. The audio is made at
// run time with the embedded Flite voices, so only the texts are committed. (The word error rate is
// measured on the speech test set, server/test/speech/speech-set.ts.) Plain words a job interview would hold,
// written as they are spoken (numbers in words), lower case without punctuation.
import type { FliteVoice } from '../../server/src/platform/speech/tts/flite-wasi.ts';

export const SENTENCES = [
  'i have five years of experience leading the support team',
  'we moved the billing service to a new database last spring',
  'my main goal is to improve the quality of our releases',
  'the project finished two weeks early and under budget',
  'i usually start the day by reading the open customer tickets',
  'our team grew from three people to twelve in one year',
  'i would like to work on larger systems with more users',
  'we measured every change before we shipped it to production',
  'the hardest part was agreeing on a plan with the other teams',
  'i enjoy teaching new engineers how the system works',
] as const;

/** The participant's voices in the latency runs (the two male voices PocketSphinx hears best). */
export const PARTICIPANT_VOICES: readonly FliteVoice[] = ['rms', 'awb'];
