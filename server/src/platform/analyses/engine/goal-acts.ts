// Which act families a goal is about, read from its name, description and instructions by meaning:
// each family has a small vocabulary of synonyms ("justify", "explain why", "rationale", "value"
// all ask for reasons). A goal naming none of them falls back to what the leader of the
// conversation is expected to do. Documented in docs/analysis.md ("Offline evaluator").

import type { Lead } from './conversation-evidence.ts';
import type { GoalDefinition } from './types.ts';

export type Family =
  | 'questions'
  | 'facts'
  | 'playback'
  | 'nextSteps'
  | 'justification'
  | 'specifics'
  | 'empathy'
  | 'ownership'
  | 'objection'
  | 'resolution'
  | 'ideas'
  | 'building'
  | 'decision'
  | 'agreement'
  | 'answers';

/** Phrases naming each family in a goal's text (matched at word starts, case-insensitive). */
export const FAMILY_PHRASES: Readonly<Record<Family, readonly string[]>> = {
  questions: [
    'gather',
    'collect',
    'ask',
    'question',
    'inquir',
    'curious',
    'probe',
    'open question',
    'explores',
    'find out',
    'finds out',
  ],
  facts: ['uncover', 'discover', 'elicit', 'gather', 'collect', 'capture', 'find out', 'finds out', 'learn'],
  playback: [
    'play back',
    'plays back',
    'playback',
    'summari',
    'recap',
    'restate',
    'paraphrase',
    'in their own words',
    'checks them',
  ],
  nextSteps: [
    'next step',
    'follow-up',
    'follow up',
    'commit',
    'agree',
    'check-in',
    'what happens next',
    'what will happen',
    'hear back',
    'by when',
    'owner',
    'who runs',
    'who does',
    'close',
  ],
  justification: [
    'judgement',
    'judgment',
    'justif',
    'explain why',
    'explains why',
    'rationale',
    'reason',
    'value',
    'backs it',
    'backed',
    'market data',
    'trade-off',
    'saying no',
    'decide what',
  ],
  specifics: [
    'specific',
    'concrete',
    'example',
    'number',
    'observable',
    'evidence',
    'behaviour',
    'behavior',
    'target',
  ],
  empathy: [
    'empath',
    'acknowledge',
    'feeling',
    'frustration',
    'rapport',
    'warm',
    'calm',
    'listen',
    'de-escalat',
    'temperature',
    'how the feedback may land',
  ],
  // De-escalating is more than naming a feeling: taking responsibility and acting on the problem
  // bring the temperature down too, so the word reads empathy, ownership and resolution.
  ownership: ['owns', 'ownership', 'responsib', 'blam', 'apolog', 'accountab', 'de-escalat'],
  objection: ['objection', 'push back', 'pushes back', 'concern', 'defensive', 'caving'],
  resolution: ['resol', 'fix', 'solve', 'sort out', 'de-escalat'],
  ideas: ['generate', 'ideas on the table', 'several', 'brainstorm', 'range of', 'options', 'distinct'],
  building: ['build on', 'builds on', 'extend', 'picks up', 'yes and', "partner's idea"],
  decision: ['converge', 'narrow', 'choose', 'prioriti', 'first experiment', 'pick one'],
  agreement: ['agreement', 'agreed', 'confirmed by both', 'deal'],
  answers: ['answer', 'structur', 'organised', 'organized', 'articulate', 'concise'],
};

const OBJECTION_PARTS: readonly Family[] = ['questions', 'facts', 'empathy'];

/** Families that stand in for a goal naming none, by who leads. */
const FALLBACK: Readonly<Record<Lead, Family[]>> = {
  participant: ['questions', 'facts', 'nextSteps'],
  persona: ['answers', 'specifics'],
};

/**
 * How much the goal's name, description and instructions weigh when they name a family: the name
 * says what the goal is; instructions are mostly rubric wording ("1-4: no reason, or apologises").
 */
const PART_WEIGHTS = [3, 2, 1] as const;

/** The families a goal asks for, with their weights (summing to 1), in a fixed order. */
export function goalFamilies(goal: GoalDefinition, lead: Lead): Map<Family, number> {
  const parts = [goal.name, goal.description ?? '', goal.instructions ?? ''].map(
    (part) => ` ${part.toLowerCase().replace(/[’‘]/g, "'")}`,
  );
  const weights = new Map<Family, number>();
  for (const family of Object.keys(FAMILY_PHRASES) as Family[]) {
    const weight = parts.reduce((sum, part, i) => sum + (namedIn(family, part) ? PART_WEIGHTS[i] : 0), 0);
    if (weight > 0) weights.set(family, weight);
  }
  // Answer quality is what a participant does when the persona leads; when the participant leads,
  // "answers it" (an objection) is about reasons, already a family of its own.
  if (lead === 'participant') weights.delete('answers');
  // Handling an objection is acknowledging it, finding out what is behind it and answering it: the
  // objection family reads those acts in the replies to the pushback, so a description spelling
  // them out ("acknowledges the concern, finds out…") does not weigh them again on their own,
  // unless the goal's name asks for them.
  if (weights.has('objection')) {
    for (const part of OBJECTION_PARTS) if (!namedIn(part, parts[0])) weights.delete(part);
  }
  if (weights.size === 0) for (const family of FALLBACK[lead]) weights.set(family, 1);
  const total = [...weights.values()].reduce((sum, w) => sum + w, 0);
  return new Map([...weights].map(([family, w]) => [family, w / total]));
}

/** The text (lower case, with a leading space) names the family. */
function namedIn(family: Family, text: string): boolean {
  return new RegExp(`[^a-z](${FAMILY_PHRASES[family].map(escapeRegExp).join('|')})`).test(text);
}

function escapeRegExp(phrase: string): string {
  return phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
