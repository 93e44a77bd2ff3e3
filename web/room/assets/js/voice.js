// The persona's voice: browser speech synthesis with a voice chosen to fit the persona, fed
// sentence by sentence while the reply streams in (speaking starts before the reply is complete,
// and short utterances avoid Chrome cutting long ones off).

const FEMALE_NAME =
  /\b(female|woman|aria|jenny|emma|ava|michelle|sonia|libby|samantha|zira|kate|serena|allison|susan|victoria|karen|moira|tessa|fiona|hazel|heera|natasha|clara|sara|salli|joanna|kimberly|ivy|amy|olivia|nova|shimmer|coral)\b/i;
const MALE_NAME =
  /\b(male|man|guy|andrew|david|brian|christopher|mark|ryan|george|daniel|oliver|alex|fred|tom|aaron|james|william|matthew|justin|joey|rishi|arthur|gordon|lee|onyx|echo|fable)\b/i;

function genderOf(voice) {
  // "Google UK English Female" says so; otherwise guess from the first name in the voice name.
  const name = voice.name;
  if (/\bfemale\b/i.test(name)) return 'female';
  if (/\bmale\b/i.test(name)) return 'male';
  if (FEMALE_NAME.test(name)) return 'female';
  if (MALE_NAME.test(name)) return 'male';
  return null;
}

const norm = (lang) =>
  String(lang ?? '')
    .replace('_', '-')
    .toLowerCase();
const base = (lang) => norm(lang).split('-')[0];

/**
 * Picks the installed voice that best fits the persona. Scores, best first: a catalog hint in
 * the voice name (earlier hints win), the exact language, the same base language, a matching
 * gender, a local (offline) voice, the browser's default. Returns null when nothing speaks the
 * language: the utterance's `lang` then lets the browser choose.
 *
 * @param {Array<{name: string, lang: string, localService?: boolean, default?: boolean}>} voices
 * @param {{ hints?: string[], language?: string, gender?: string | null }} want
 */
export function pickVoice(voices, want = {}) {
  const hints = (want.hints ?? []).map((hint) => hint.toLowerCase());
  const language = norm(want.language || (typeof navigator === 'undefined' ? 'en-US' : navigator.language));
  const gender = want.gender ?? null;
  let best = null;
  let bestScore = -1;
  for (const voice of voices) {
    const lang = norm(voice.lang);
    const sameBase = base(lang) === base(language);
    let score = 0;
    const hintIndex = hints.findIndex((hint) => voice.name.toLowerCase().includes(hint));
    if (hintIndex >= 0 && (sameBase || !lang)) score += 1000 - hintIndex * 10;
    if (lang === language) score += 300;
    else if (sameBase) score += 200;
    else if (hintIndex < 0) continue; // a voice of another language never fits
    const voiceGender = genderOf(voice);
    if (gender && voiceGender === gender) score += 60;
    else if (gender && voiceGender && voiceGender !== gender) score -= 80;
    if (voice.localService) score += 5;
    if (voice.default) score += 2;
    if (score > bestScore) {
      best = voice;
      bestScore = score;
    }
  }
  return best;
}

/** Resolves the voice list, which Chrome fills asynchronously (`voiceschanged`). */
export function loadVoices(synth = window.speechSynthesis, timeoutMs = 1500) {
  if (!synth) return Promise.resolve([]);
  const now = synth.getVoices();
  if (now.length) return Promise.resolve(now);
  return new Promise((resolve) => {
    const done = () => {
      synth.removeEventListener('voiceschanged', done);
      clearTimeout(timer);
      resolve(synth.getVoices());
    };
    const timer = setTimeout(done, timeoutMs);
    synth.addEventListener('voiceschanged', done);
  });
}

/**
 * Splits off complete sentences from a growing buffer: `[sentences, rest]`. A sentence ends at
 * `.`, `!`, `?` or `…` followed by whitespace (so "3." may still become "3.5"), or at a newline.
 */
export function takeSentences(buffer) {
  const sentences = [];
  const boundary = /[.!?…]+["'”’)\]]*(?=\s)|\n/g;
  let start = 0;
  for (let match = boundary.exec(buffer); match; match = boundary.exec(buffer)) {
    const end = match.index + match[0].length;
    const sentence = buffer.slice(start, end).trim();
    if (sentence) sentences.push(sentence);
    start = end;
  }
  return [sentences, buffer.slice(start)];
}

/**
 * Speaks the persona's turns. `push(turnId, delta)` while streaming, `finish(turnId, text)` on the
 * final message, `cancel()` on barge-in. Emits `speaking` / `idle` events for the UI.
 */
export class Speaker extends EventTarget {
  constructor({
    voice = null,
    language = 'en-US',
    gender = null,
    synth = window.speechSynthesis,
    enabled = true,
  } = {}) {
    super();
    this.synth = enabled ? (synth ?? null) : null;
    this.voice = voice;
    this.language = voice?.lang || language;
    // Without a fitting voice a slightly lower or higher pitch keeps the gender plausible.
    this.pitch = voice || !gender ? 1 : gender === 'male' ? 0.85 : 1.1;
    this.muted = false;
    this.turnId = null;
    this.buffer = '';
    this.spoken = '';
    /** Utterances queued or being spoken; the persona is "speaking" while any remain. */
    this.active = new Set();
  }

  get available() {
    return Boolean(this.synth && typeof SpeechSynthesisUtterance !== 'undefined');
  }

  get speaking() {
    return this.active.size > 0;
  }

  push(turnId, delta) {
    if (turnId !== this.turnId) this.#startTurn(turnId);
    this.buffer += delta;
    const [sentences, rest] = takeSentences(this.buffer);
    this.buffer = rest;
    for (const sentence of sentences) this.#say(sentence);
  }

  /** The turn's final text: speak whatever was not spoken yet. */
  finish(turnId, text, interrupted = false) {
    if (interrupted) {
      if (turnId === this.turnId) this.cancel();
      return;
    }
    if (turnId !== this.turnId) {
      this.#startTurn(turnId);
      this.#say(text);
    } else {
      const rest = this.buffer.trim();
      if (rest) this.#say(rest);
    }
    this.buffer = '';
  }

  /** Speaks a standalone line (a filler phrase) unless the persona is already talking. */
  sayOnce(text) {
    if (!this.speaking) this.#say(text);
  }

  cancel() {
    this.buffer = '';
    if (this.synth && this.active.size > 0) this.synth.cancel();
    this.#update(() => this.active.clear());
  }

  setMuted(muted) {
    this.muted = muted;
    if (muted) this.cancel();
  }

  #startTurn(turnId) {
    this.turnId = turnId;
    this.buffer = '';
  }

  #say(text) {
    if (!this.available || this.muted || !text.trim()) return;
    const utterance = new SpeechSynthesisUtterance(text);
    if (this.voice) utterance.voice = this.voice;
    utterance.lang = this.language;
    utterance.pitch = this.pitch;
    utterance.rate = 1;
    // Some engines never fire `end` (no audio output, a voice that failed to load): a watchdog
    // sized to the text keeps the room from waiting for the persona forever.
    const words = text.split(/\s+/).length;
    const watchdog = setTimeout(() => done(), 3000 + words * 600);
    const done = () => {
      clearTimeout(watchdog);
      this.#update(() => this.active.delete(utterance));
    };
    utterance.addEventListener('end', done, { once: true });
    utterance.addEventListener('error', done, { once: true });
    this.#update(() => this.active.add(utterance));
    this.synth.speak(utterance);
  }

  #update(change) {
    const was = this.speaking;
    change();
    if (was !== this.speaking) this.dispatchEvent(new Event(this.speaking ? 'speaking' : 'idle'));
  }
}
