// What a free-text brief says about the conversation to practise: its topic (the sentence that
// says what the participant wants), the counterpart the persona plays, and the situation around
// it, which becomes background the persona can draw on.
import type { Demeanor } from '../../tables.ts';
import { titleCase } from './text.ts';
import { MOODS, ROLE_NOUNS, ROLE_WORD } from './vocabulary.ts';

/** "I want to …", "Help me …": the sentence that says what the participant wants to practise. */
const GOAL =
  /\b(?:i want to|i'd like to|i would like to|i need to|i'm trying to|i am trying to|help me|let me|please)\s+/i;

function sentencesOf(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.!?])\s+(?=[A-Z0-9"“'])/)
    .filter(Boolean);
}

/**
 * The brief's opening paragraph. A brief that introduces a pasted document ("Interview practice
 * for this job:") ends at that line, so the document's lines are not read as the brief.
 */
function leadOf(userInput: string): string {
  const lines: string[] = [];
  for (const line of userInput.trim().split('\n')) {
    if (!line.trim() || /^\s*(?:[-*•#]|\d+[.)])\s/.test(line)) break;
    lines.push(line);
    if (/:\s*$/.test(line)) break;
  }
  return lines.join(' ');
}

export function findTopic(userInput: string): string | null {
  const sentences = sentencesOf(leadOf(userInput));
  const chosen = sentences.find((sentence) => GOAL.test(sentence)) ?? sentences[0];
  if (!chosen) return null;
  // "I have a salary talk on Friday and I want to practise it": the topic is before "I want to".
  const wanted =
    /^(.*?)[\s,]*(?:\band\s+|\bso\s+)?\b(?:i want to|i'd like to|i would like to|i need to|i'm trying to|i am trying to)\s+(.*)$/i.exec(
      chosen,
    );
  const vague =
    wanted &&
    /^(?:practi[cs]e|rehearse|prepare(?: for)?|do|try|get ready for)\s+(?:it|this|that|them)\b/i.test(
      wanted[2]!,
    );
  const topic = (vague && wanted[1]!.length >= 4 ? wanted[1]! : (wanted?.[2] ?? chosen))
    .replace(/^(?:help me|let me|please|create|make|build|generate)\s+/i, '')
    .replace(/^(?:a|an)\s+(?:scenario|session|role[- ]?play|simulation)\s+(?:to|for|where|in which)\s+/i, '')
    .replace(/^(?:practi[cs]e|rehearse)\s+(?=\w+ing\b)/i, '')
    .replace(/[.!?:]+$/, '');
  return topic.length >= 4 ? topic.slice(0, 140) : null;
}

/** The brief's other sentences: what the persona may know about the situation. */
export function situationOf(userInput: string, topic: string | null): string[] {
  return sentencesOf(leadOf(userInput))
    .filter((sentence) => !GOAL.test(sentence) && !(topic && sentence.includes(topic)))
    .map((sentence) => sentence.replace(/[.!?]+$/, ''))
    .filter((sentence) => sentence.length >= 25 && sentence.length <= 300)
    .slice(0, 5);
}

/** "… to a sceptical CFO at a retail company", "meeting Karen, the Head of Operations at Fernway". */
export function findCounterpart(
  text: string,
): { title: string; demeanor: Demeanor | null; organisation: string | null } | null {
  const match = new RegExp(
    `\\b(?:to|with|for|convince|persuade|tell|ask|(?:meeting|meet|call with|calling|visiting)(?:\\s+[A-Za-z]+,)?)\\s+(?:an?|the|my|our|their)\\s+((?:[a-z-]+\\s+){0,2}?)((?:${ROLE_WORD}\\s+){0,2}?(?:${ROLE_NOUNS}|customer|client|buyer|prospect|boss|colleague|employee|team member|stakeholder|landlord|tenant|patient|parent|student|investor|supplier|vendor|partner)(?:\\s+of\\s+(?!(?:an?|the)\\b)[A-Za-z]+)?)\\b(?:\\s+(?:at|of|from|in)\\s+(?:an?\\s+|the\\s+)?([^,.;!?\\n]{3,50}))?`,
    'i',
  ).exec(text);
  if (!match) return null;
  let adjectives = match[1]!.trim();
  let title = match[2]!.trim();
  const describing =
    /^(?:very\s+|really\s+)?(?:sceptical|skeptical|doubtful|critical|demanding|tough|difficult|angry|upset|frustrated|annoyed|irate|busy|impatient|direct|friendly|warm|nice|curious|interested|potential|prospective|existing|new|important|key|large|small)\s+/i;
  for (let m = describing.exec(title); m; m = describing.exec(title)) {
    adjectives = `${adjectives} ${m[0]}`.trim();
    title = title.slice(m[0].length);
  }
  const demeanor = MOODS.find(([pattern]) => pattern.test(adjectives))?.[1] ?? null;
  const organisation = match[3]?.trim().replace(/\s+(?:who|that|which|because|about)\b.*$/i, '') ?? null;
  return {
    title: /^[a-z]/.test(title) && !/[A-Z]/.test(title) ? titleCase(title) : title,
    demeanor,
    organisation,
  };
}
