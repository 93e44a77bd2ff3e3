// When the participant's voice cuts the persona off (docs/realtime.md#barge-in). People murmur
// while they listen ("yeah", "mhm", "right"): that is encouragement, not a wish to speak, so speech
// that starts while the persona talks interrupts only once it is clearly more than that — a word
// that is not a backchannel, three words, or 1.2 s of speech (the last covers recognisers that
// give no interim text). A final that is nothing but backchannels is dropped, not answered.
// The persona's own voice leaking back through the microphone (echo the browser did not cancel)
// is recognised as the persona's recent words (persona-echo.ts): it never interrupts, and its
// final is dropped too.

/** Speech this long interrupts whatever the recogniser made of it so far. */
export const BARGE_IN_SPEECH_MS = 1_200;
/** This many words interrupt even when each is a backchannel ("yeah yeah yeah"). */
export const BARGE_IN_WORDS = 3;
/** Text is echo when at least this share of its words… */
export const ECHO_SHARE = 0.6;
/** …of at least this many words are among the persona's recent words. */
export const ECHO_MIN_WORDS = 2;

/** One-word backchannels (lower case, as `words()` normalises them). */
const BACKCHANNEL_WORDS = new Set([
  'yeah',
  'yes',
  'ok',
  'okay',
  'mhm',
  'mm',
  'uh-huh',
  'right',
  'sure',
  'yep',
  'hmm',
  'ah',
  'oh',
  'alright',
]);
/** Backchannels of two words; recognisers also write "uh-huh" and "all right" apart. */
const BACKCHANNEL_PHRASES = [
  ['i', 'see'],
  ['got', 'it'],
  ['uh', 'huh'],
  ['all', 'right'],
];

/** The words of a transcript, lower case, without punctuation (apostrophes and hyphens kept). */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'\- ]+/gu, ' ')
    .split(/\s+/)
    .map((word) => word.replace(/^['-]+|['-]+$/g, ''))
    .filter((word) => word !== '');
}

/** The words that are not backchannels, in order (two-word backchannels removed first). */
function substantiveWords(all: string[]): string[] {
  const left: string[] = [];
  for (let i = 0; i < all.length; i += 1) {
    const phrase = BACKCHANNEL_PHRASES.find(([a, b]) => all[i] === a && all[i + 1] === b);
    if (phrase) {
      i += 1;
      continue;
    }
    if (!BACKCHANNEL_WORDS.has(all[i]!)) left.push(all[i]!);
  }
  return left;
}

/** True when the text says something, and all of it is backchannel ("yeah", "ok, got it"). */
export function isBackchannel(text: string): boolean {
  const all = words(text);
  return all.length > 0 && substantiveWords(all).length === 0;
}

/**
 * True when the text is most likely the persona's own voice picked up by the microphone: at least
 * ECHO_MIN_WORDS words, ECHO_SHARE of which the persona has said lately (`personaWords`).
 */
export function isEcho(text: string, personaWords: ReadonlySet<string>): boolean {
  const all = words(text);
  if (all.length < ECHO_MIN_WORDS) return false;
  const shared = all.filter((word) => personaWords.has(word)).length;
  return shared / all.length >= ECHO_SHARE;
}

/**
 * Whether speech that began while the persona was talking should now cut it off, given the
 * recognition so far (`text`, '' when there is none yet), how long the speech has lasted and the
 * persona's recent words. Text that is (or, one word long, may be the start of) the persona's own
 * echo never interrupts — not even by lasting: the duration rule counts only while there is no
 * text to judge.
 */
export function shouldBargeIn(
  text: string,
  speechMs: number,
  personaWords: ReadonlySet<string> = new Set(),
): boolean {
  const all = words(text);
  if (all.length > 0) {
    if (isEcho(text, personaWords)) return false;
    // A single word the persona has just said: wait for the next word before judging.
    if (all.length === 1 && personaWords.has(all[0]!)) return false;
  }
  if (speechMs >= BARGE_IN_SPEECH_MS) return true;
  return all.length >= BARGE_IN_WORDS || substantiveWords(all).length > 0;
}
