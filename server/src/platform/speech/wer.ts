// Word error rate: (substitutions + deletions + insertions) / words of the reference, by
// word-level edit distance. Used by the recogniser tests and the voice benchmark.

/** Lower case, no punctuation (apostrophes inside words kept), split on white space. */
export function normalizeWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'\s]+/gu, ' ')
    .replace(/(^|\s)'+|'+(?=\s|$)/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/** Minimum word insertions, deletions and substitutions turning `reference` into `hypothesis`. */
export function wordEditDistance(reference: string[], hypothesis: string[]): number {
  // One row of the classic dynamic programme at a time.
  let previous = Array.from({ length: hypothesis.length + 1 }, (_, index) => index);
  for (let i = 1; i <= reference.length; i++) {
    const current = [i];
    for (let j = 1; j <= hypothesis.length; j++) {
      const substitution = previous[j - 1] + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1);
      current[j] = Math.min(substitution, previous[j] + 1, current[j - 1] + 1);
    }
    previous = current;
  }
  return previous[hypothesis.length];
}

/** WER of `hypothesis` against `reference` (0 = perfect; may exceed 1 with many insertions). */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const ref = normalizeWords(reference);
  const hyp = normalizeWords(hypothesis);
  if (ref.length === 0) return hyp.length === 0 ? 0 : 1;
  return wordEditDistance(ref, hyp) / ref.length;
}
