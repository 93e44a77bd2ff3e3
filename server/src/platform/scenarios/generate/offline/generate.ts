// The rule-based scenario generator used when no LLM is configured. It reads the description (and
// an uploaded job description or résumé) for a role title, company, seniority, skills,
// requirements and responsibilities, decides the kind of session, and fills templates with what
// it found. It does not understand the text: it matches patterns and a skill vocabulary.
// Here: facts.ts reads the text (sections.ts its layout, names.ts the role and company, brief.ts
// a free-text brief, vocabulary.ts the words), one *-plan.ts per kind of session fills a Plan,
// and this entry picks the persona and writes the prompt from the plan.
import { createHash } from 'node:crypto';
import type { Gender } from '../../tables.ts';
import type { GeneratedScenario, GenerationInput } from '../schema.ts';
import { brainstormPlan } from './brainstorm-plan.ts';
import { readFacts, type TextFacts } from './facts.ts';
import { interviewPlan } from './interview-plan.ts';
import { roleplayPlan } from './roleplay-plan.ts';
import { upskillPlan } from './upskill-plan.ts';
import { FEMALE_NAMES, MALE_NAMES } from './vocabulary.ts';

function pick<T>(items: readonly T[], seed: number): T {
  return items[seed % items.length]!;
}

function seedOf(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

/** Builds a complete scenario from the text with rules only; deterministic for the same input. */
export function generateOffline(input: GenerationInput): GeneratedScenario & { facts: TextFacts } {
  const facts = readFacts(input);
  const plan =
    facts.type === 'interview'
      ? interviewPlan(facts, input)
      : facts.type === 'upskill'
        ? upskillPlan(facts, input)
        : facts.type === 'brainstorm'
          ? brainstormPlan(facts, input)
          : roleplayPlan(facts, input);
  const seed = seedOf(`${input.userInput}\n${input.document ?? ''}`);
  const gender: Gender = seed % 2 === 0 ? 'female' : 'male';
  const personaName = pick(gender === 'female' ? FEMALE_NAMES : MALE_NAMES, seed >>> 1);
  const firstName = personaName.split(' ')[0]!;
  const prompt = [
    `# ${plan.name}`,
    '',
    '## Your role',
    `You are ${personaName}, ${plan.personaTitle}. ${plan.roleLine}`,
    '',
    '## Context',
    ...plan.context.map((line) => `- ${line}`),
    '',
    '## Conversation flow',
    ...plan.questions.map((question, index) => `${index + 1}. ${question}`),
    '',
    '## Rules',
    ...plan.rules.map((rule) => `- ${rule}`),
    '',
  ].join('\n');
  const opening =
    facts.type === 'interview'
      ? `Hi, I'm ${firstName}, ${plan.personaTitle}. Thanks for joining this interview${facts.role ? ` for the ${facts.role} role` : ''}. Shall we begin?`
      : facts.type === 'upskill'
        ? `Hi, I'm ${firstName}. Welcome to your practice session — there are no wrong answers here. Shall we begin?`
        : facts.type === 'brainstorm'
          ? `Hi, I'm ${firstName}. I'm looking forward to thinking this through with you. Shall we get started?`
          : `Hi, I'm ${firstName}. I've got a few minutes — what did you want to discuss?`;
  return {
    facts,
    scenario: {
      name: plan.name.slice(0, 120),
      type: facts.type,
      description: plan.description.slice(0, 600),
      prompt,
      welcome_message: opening,
    },
    persona: {
      name: personaName,
      job_title: plan.personaTitle.slice(0, 100),
      demeanor: plan.demeanor,
      gender,
      background: plan.background,
    },
    goals: plan.goals,
  };
}
