// The shape of the evaluation set on hand-written scenarios (docs/offline-engine.md, issue 27).
// Written from the customer's side: prompts as people type them, questions as people ask them.
import type { OfflineScriptContext } from '../composer.ts';

export type ScenarioKind =
  | 'sales'
  | 'interview'
  | 'coaching'
  | 'brainstorm'
  | 'complaint'
  | 'discovery'
  | 'negotiation'
  | 'one-on-one';

export type MechanicsKind = 'small_talk' | 'off_topic' | 'rude' | 'ai_probe' | 'closing';

/** A question and the facts the reply must hold: each inner list is one fact, any alternative satisfies it. */
export interface FactTurn {
  type: 'fact';
  ask: string;
  expect: string[][];
  /** Refers back to the previous answer ("and how long would that take?"). */
  followUp?: boolean;
  /** Asks again for a fact already given. */
  reask?: boolean;
}

/** Small talk, off-topic, rudeness, "are you a bot?" or a goodbye (which must end the call). */
export interface MechanicsTurn {
  type: 'mechanics';
  kind: MechanicsKind;
  say: string;
}

/**
 * A participant's answer in a persona-led scenario. `next` is a phrase of the script question that
 * must follow: the next step after a good answer, the same step again after an off-script question.
 * After a vague answer `next` is null: the persona probes and does not move on to the next step yet.
 * A good answer to the last step has `next` null: no further script question.
 */
export interface AnswerTurn {
  type: 'answer';
  label: 'good' | 'vague' | 'off_script';
  say: string;
  next: string | null;
}

export type EvaluationTurn = FactTurn | MechanicsTurn | AnswerTurn;

export interface EvaluationScenario {
  name: string;
  kind: ScenarioKind;
  context: OfflineScriptContext;
  /** Exact prompt lines that are instructions, headings or agenda: never to be spoken. */
  instructions: string[];
  /** Played in one call, in this order. */
  turns: EvaluationTurn[];
}

type Fact = string | string[];
const facts = (expect: Fact[]) => expect.map((f) => (typeof f === 'string' ? [f] : f));

/** A question; each further argument is one required fact (a string, or a list of alternatives). */
export const q = (ask: string, ...expect: Fact[]): FactTurn => ({ type: 'fact', ask, expect: facts(expect) });
export const followUp = (ask: string, ...expect: Fact[]): FactTurn => ({
  ...q(ask, ...expect),
  followUp: true,
});
export const reask = (ask: string, ...expect: Fact[]): FactTurn => ({ ...q(ask, ...expect), reask: true });
export const m = (kind: MechanicsKind, say: string): MechanicsTurn => ({ type: 'mechanics', kind, say });
export const good = (say: string, next: string | null): AnswerTurn => ({
  type: 'answer',
  label: 'good',
  say,
  next,
});
export const vague = (say: string): AnswerTurn => ({ type: 'answer', label: 'vague', say, next: null });
export const offScript = (say: string, next: string): AnswerTurn => ({
  type: 'answer',
  label: 'off_script',
  say,
  next,
});

/** A held-out scenario's context: the participant (Alex) asks, no welcome or background is set. */
export const heldOutContext =
  (set: string) =>
  (personaName: string, jobTitle: string, demeanor: string, scenarioType: string, prompt: string) => ({
    personaName,
    jobTitle,
    demeanor,
    background: null,
    scenarioName: `${personaName} (${set})`,
    scenarioType,
    prompt,
    welcomeMessage: null,
    participantName: 'Alex',
  });
