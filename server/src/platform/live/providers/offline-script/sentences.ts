// Sentence splitting with the platform's own segmenter (Intl.Segmenter, Unicode sentence rules).
const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

export function splitSentences(text: string): string[] {
  return [...segmenter.segment(text)].map((s) => s.segment.trim()).filter((s) => s.length > 0);
}
