// What a script tells the persona to do at the end of the call ("At the end, tell them Nina from
// recruiting will follow up within a week.", "Thank them at the end and say HR will call on Monday.",
// "Close by summarising one thing they'll do differently."): said when the script is done.
import { capitalize, sentences, stripInlineMarkdown, thirdToSecondPerson } from './text.ts';

export interface WrapUp {
  /** What the persona says at the end, in the second person: "HR will call you on Monday." */
  lines: string[];
  /** The script asks the persona to sum up what the participant said they would do. */
  summarise: boolean;
}

/** The sentence is about the end of the call. */
const AT_THE_END =
  /\b(?:at the end|in the end|to (?:close|finish|end|wrap up)|when (?:you(?:'re| are) )?(?:done|finished|wrapping up)|before (?:you )?(?:hang up|finish|end|close|say goodbye)|(?:close|end|finish|wrap up|sign off)(?: the (?:call|session|interview|meeting|conversation))? (?:by|with)|afterwards|wrap-?up|closing)\b/i;
/** "tell them X", "say X", "let them know that X", "mention X": X is what is said. */
const SAYS =
  /\b(?:tell(?:ing)? (?:them|him|her|the (?:participant|candidate|caller|learner))|say(?:ing)?|mention(?:ing)?|let(?:ting)? (?:them|him|her|the (?:participant|candidate)) know|explain(?:ing)?|confirm(?:ing)?|remind(?:ing)? (?:them|him|her))\b(?: that)?[:,]?\s+(.+)$/i;
const SUMMARISE = /\bsumm(?:ari[sz]|ing up|ary)|\brecap\b|\bsum up\b/i;

/** A line to say: the third person about the participant turned to "you", a full stop at the end. */
function speakable(text: string, persona: string | null): string | null {
  const first = persona?.trim().split(/\s+/)[0];
  // "she'll send a checklist", "Felix will send…": the persona speaks of itself as "I".
  const self = new RegExp(
    `^(?:she|he${first ? `|${first}` : ''})(?=(?:'ll|'d|\\s+will|\\s+would|\\s+can)\\b)`,
    'i',
  );
  const said = thirdToSecondPerson(
    text
      .replace(/^["“']|["”']$/g, '')
      .trim()
      .replace(self, 'I'),
  )
    .replace(/\s*\(.*?\)\s*/g, ' ')
    .replace(/[\s.;:,!]+$/, '')
    .trim();
  // "if asked", "when it fits": a condition on the saying, not part of what is said.
  const bare = said.replace(
    /,?\s+(?:if|when|once|should) (?:asked|needed|relevant|appropriate|it fits)\b.*$/i,
    '',
  );
  return bare.split(/\s+/).length >= 3 ? `${capitalize(bare)}.` : null;
}

export function readWrapUp(prompt: string | null, persona: string | null = null): WrapUp {
  const lines: string[] = [];
  let summarise = false;
  for (const raw of (prompt ?? '').split(/\n+/)) {
    const line = stripInlineMarkdown(raw.replace(/^\s*(?:[-*+•]|\d{1,3}[.)])\s+/, ''));
    for (const sentence of sentences(line)) {
      if (!AT_THE_END.test(sentence)) continue;
      if (SUMMARISE.test(sentence)) summarise = true;
      const said = SAYS.exec(sentence);
      const text = said ? speakable(said[1], persona) : null;
      if (text && !lines.includes(text)) lines.push(text);
    }
  }
  return { lines, summarise };
}
