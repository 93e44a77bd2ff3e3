// What every kind of session fills in before the entry point writes the prompt from it.
import type { Demeanor } from '../../tables.ts';
import type { GeneratedScenario } from '../schema.ts';

/** About one question per four minutes, at least 4 and at most 10: the LLM is asked for the same. */
export function questionCount(duration: number): number {
  return Math.max(4, Math.min(10, Math.round(duration / 4)));
}

/** The opening questions of a fixed script, as many as fit the duration. */
export function scriptFor(questions: string[], duration: number): string[] {
  return questions.slice(0, questionCount(duration));
}

export interface Plan {
  personaTitle: string;
  demeanor: Demeanor;
  name: string;
  description: string;
  roleLine: string;
  context: string[];
  questions: string[];
  rules: string[];
  goals: GeneratedScenario['goals'];
  background: string;
}
