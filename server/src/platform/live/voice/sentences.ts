// Splits the persona's streaming reply into sentences, so each can be synthesised as soon as it is
// complete and the first is heard before the reply is. Sentence boundaries come from the Unicode
// rules (UAX #29) through the runtime's ICU (`Intl.Segmenter`, no package needed), which knows
// "3.5", "Wait... what?!" and "e.g. this" better than a regular expression (it does cut after
// "Mr.", which only costs a pause). A boundary is trusted only once text follows it: the last
// segment may still grow ("It costs 3." + "5 dollars"), so it waits for more text or the end.

/** A reply that runs this long without a sentence end is cut at a clause (or a word) instead. */
export const MAX_SENTENCE_CHARS = 300;
/** …but never into pieces shorter than this. */
const MIN_CUT_CHARS = 40;
/**
 * The reply's first piece ends at its first clause ("I have been with the practice nine years, so…")
 * when the clause is at least this long: synthesis takes time in proportion to the text, and the
 * participant waits for the first piece only (RealtimeTTS calls this a fast sentence fragment).
 * Shorter openings ("Well, …", "Hi, I am Jane.") stay whole, so the voice does not stop after a word.
 */
const FIRST_CLAUSE_MIN_CHARS = 24;
const CLAUSE_MARKS = [', ', '; ', ': ', ' - ', ' — '];

export class SentenceSplitter {
  readonly #segmenter: Intl.Segmenter;
  #pending = '';
  #handedOut = false;

  constructor(language = 'en') {
    this.#segmenter = sentenceSegmenter(language);
  }

  /** Adds streamed text; returns the sentences it completed, in order. */
  push(text: string): string[] {
    this.#pending += text;
    const segments = [...this.#segmenter.segment(this.#pending)].map((s) => s.segment);
    const done = segments.slice(0, -1);
    this.#pending = segments.at(-1) ?? '';
    if (!this.#handedOut) {
      // The first clause may go before its sentence is complete.
      const first = done[0] ?? this.#pending;
      const cut = firstClauseEnd(first);
      if (cut > 0 && done.length > 0) done.splice(0, 1, first.slice(0, cut), first.slice(cut));
      else if (cut > 0) {
        done.push(first.slice(0, cut));
        this.#pending = first.slice(cut);
      }
    }
    while (this.#pending.length > MAX_SENTENCE_CHARS) {
      const cut = cutPoint(this.#pending);
      done.push(this.#pending.slice(0, cut));
      this.#pending = this.#pending.slice(cut);
    }
    return this.#handOut(done);
  }

  /** The reply is complete: whatever is left is the last sentence. */
  flush(): string[] {
    const rest = this.#pending;
    this.#pending = '';
    return this.#handOut([rest]);
  }

  #handOut(pieces: string[]): string[] {
    const sentences = speakable(pieces);
    if (sentences.length > 0) this.#handedOut = true;
    return sentences;
  }
}

/** Where the reply's first clause ends (after its mark), or 0 when it should stay whole. */
function firstClauseEnd(text: string): number {
  const marks = CLAUSE_MARKS.map((mark) => text.indexOf(mark, FIRST_CLAUSE_MIN_CHARS - 1)).filter(
    (at) => at >= 0,
  );
  if (marks.length === 0) return 0;
  const end = Math.min(...marks) + 1;
  // Something worth saying must follow in the same sentence, or the cut gains nothing.
  return /[\p{L}\p{N}]/u.test(text.slice(end)) ? end : 0;
}

function sentenceSegmenter(language: string): Intl.Segmenter {
  try {
    return new Intl.Segmenter(language, { granularity: 'sentence' });
  } catch {
    return new Intl.Segmenter('en', { granularity: 'sentence' });
  }
}

/** Where to cut an over-long run: after the last clause mark, else the last space, else hard. */
function cutPoint(text: string): number {
  const window = text.slice(0, MAX_SENTENCE_CHARS);
  const clause = Math.max(...[', ', '; ', ': ', ' - ', ' — '].map((mark) => window.lastIndexOf(mark)));
  if (clause >= MIN_CUT_CHARS) return clause + 2;
  const space = window.lastIndexOf(' ');
  return space >= MIN_CUT_CHARS ? space + 1 : MAX_SENTENCE_CHARS;
}

/** Trimmed sentences that hold something to say (not a lone "…" or a stray quote). */
function speakable(sentences: string[]): string[] {
  return sentences.map((s) => s.trim()).filter((s) => /[\p{L}\p{N}]/u.test(s));
}
