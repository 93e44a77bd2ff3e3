// The words a Whisper-style recogniser should be told to expect (its `prompt`, which OpenAI's API
// reads as the text before the audio, up to 224 tokens): the names, products and terms of the
// meeting's scenario, as the author spelt them. compromise finds the proper nouns, acronyms and
// the nouns a general vocabulary is least likely to prefer; common words are left out, they help
// nothing and crowd the prompt.
import nlp from 'compromise';

/** Characters of prompt at most (≈ 150 tokens: well inside the API's 224). */
export const MAX_PROMPT_CHARS = 600;

export function promptTerms(vocabulary: string): string {
  const doc = nlp(vocabulary.replace(/^\s*(?:#+|[-*•>]+|\d+[.)])\s*/gm, ''));
  const terms = [
    ...doc.match('#ProperNoun+').out('array'),
    ...doc.match('#Acronym').out('array'),
    ...doc.match('#Noun+').not('#Pronoun').not('#ProperNoun').out('array'),
  ];
  const seen = new Set<string>();
  const kept: string[] = [];
  let length = 0;
  for (const raw of terms as string[]) {
    const term = raw.replace(/[^\p{L}\p{N}' &-]/gu, '').trim();
    const key = term.toLowerCase();
    if (term.length < 3 || seen.has(key) || COMMON.has(key)) continue;
    if (length + term.length + 2 > MAX_PROMPT_CHARS) break;
    seen.add(key);
    kept.push(term);
    length += term.length + 2;
  }
  return kept.join(', ');
}

// Nouns of every meeting: naming them tells the recogniser nothing.
const COMMON = new Set(
  'you your participant persona person people thing things time way day today call meeting conversation question questions answer answers goal goals role session part end start lot bit one ones'.split(
    ' ',
  ),
);
