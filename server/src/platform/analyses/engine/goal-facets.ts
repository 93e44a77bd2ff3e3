// Which kinds of evidence a goal asks for, read from its text, and how much each one weighs.
// A goal that talks about questions is scored more on questions, one that talks about playback
// and next steps more on those. Documented in docs/analysis.md ("Offline evaluator").

import type { Lead } from './conversation-evidence.ts';
import { stem, tokenize } from './text.ts';
import type { GoalDefinition } from './types.ts';

/**
 * Q questions asked, F facts elicited, P playback, N next steps, A answer quality, C the goal's
 * topic raised through questions and answers (or, when the persona leads, in real answers).
 */
export type Facet = 'Q' | 'F' | 'P' | 'N' | 'A' | 'C';

/** Words naming a facet in a goal's text (compared by stem). */
export const FACET_WORDS: Readonly<Record<Exclude<Facet, 'C'>, readonly string[]>> = {
  Q: ['ask', 'question', 'inquire', 'inquiry', 'curious', 'curiosity', 'probe', 'clarify', 'open'],
  F: [
    'uncover',
    'surface',
    'discover',
    'discovery',
    'elicit',
    'learn',
    'capture',
    'gather',
    'identify',
    'explore',
    'dig',
    'find',
  ],
  P: [
    'playback',
    'summarise',
    'summarize',
    'summary',
    'recap',
    'restate',
    'paraphrase',
    'reflect',
    'confirm',
  ],
  N: ['next', 'action', 'owner', 'follow-up', 'commit', 'commitment', 'agree', 'close'],
  A: [
    'answer',
    'explain',
    'structure',
    'structured',
    'example',
    'specific',
    'concise',
    'clear',
    'clearly',
    'detail',
    'depth',
    'story',
    'articulate',
    'communicate',
  ],
};

const FACET_STEMS = Object.fromEntries(
  Object.entries(FACET_WORDS).map(([facet, words]) => [facet, words.map((w) => stem(w))]),
) as Record<Exclude<Facet, 'C'>, string[]>;

/** Base weights by who leads; a facet the goal names gets EMPHASIS more, then all are normalised. */
export const BASE_WEIGHTS: Readonly<Record<Lead, Partial<Record<Facet, number>>>> = {
  participant: { Q: 0.25, F: 0.3, C: 0.2, P: 0.125, N: 0.125 },
  persona: { A: 0.65, C: 0.35 },
};
export const EMPHASIS = 1;

/** The facet whose vocabulary holds this stem, if any. */
export function facetOfStem(s: string): Exclude<Facet, 'C'> | null {
  for (const [facet, stems] of Object.entries(FACET_STEMS)) {
    if (stems.includes(s)) return facet as Exclude<Facet, 'C'>;
  }
  return null;
}

/** The facets a goal names in its name, description or instructions. */
export function goalFacets(goal: GoalDefinition): Set<Exclude<Facet, 'C'>> {
  const named = new Set<Exclude<Facet, 'C'>>();
  const text = [goal.name, goal.description ?? '', goal.instructions ?? ''].join(' ').toLowerCase();
  for (const token of tokenize(text)) {
    const facet = facetOfStem(stem(token.norm));
    if (facet) named.add(facet);
  }
  if (/\bplay(ed|ing)? back\b/.test(text)) named.add('P');
  return named;
}

/** Normalised facet weights for a goal (they sum to 1). */
export function facetWeights(lead: Lead, named: Set<Exclude<Facet, 'C'>>): Map<Facet, number> {
  const weights = new Map<Facet, number>(Object.entries(BASE_WEIGHTS[lead]) as [Facet, number][]);
  for (const facet of named) weights.set(facet, (weights.get(facet) ?? 0) + EMPHASIS);
  const total = [...weights.values()].reduce((sum, w) => sum + w, 0);
  return new Map([...weights].map(([facet, w]) => [facet, w / total]));
}
