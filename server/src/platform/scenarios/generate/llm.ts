// Scenario generation with the configured LLM: a structured-output request whose reply must match
// GeneratedScenario and the extra checks (numbered steps, score ranges); one repair round is
// done by the client.
import type { LlmClient } from '../../../core/llm/index.ts';
import {
  checkGenerated,
  type GeneratedScenario,
  type GenerationInput,
  GeneratedScenario as Schema,
} from './schema.ts';

const SYSTEM = `You design realistic voice conversation-practice scenarios. In each session an AI persona talks with a human participant by voice. You return one JSON object with:
- "persona": the character the AI plays (the interviewer, customer, stakeholder, coach ... never the participant): "name" (a realistic full name), "job_title", "demeanor" (one of friendly, analytical, empathetic, curious, enthusiastic, critical, casual, blunt, assertive, neutral), "gender" (male or female), "background" (2-4 sentences).
- "scenario": "name" (short), "type" (interview, roleplay, upskill or brainstorm), "description" (1-2 sentences shown to the participant), "welcome_message" (the persona's first spoken line, 1-2 sentences, no question from the script), and "prompt": the persona's script in Markdown with exactly these sections:
  "## Your role" (who the persona is and what the session is for),
  "## Context" (bullet facts taken from the user's text: role, company, skills, requirements, situation),
  "## Conversation flow" (a numbered list; each item is one direct question the persona asks, in order),
  "## Rules" (bullets: one question at a time, stay in character, follow-up when answers are vague, time limit).
  Use about one question per four minutes of the session (at least 4, at most 10). Use the concrete details from the user's text; do not invent a company if none is given. Do not invite the participant to ask the persona questions.
- "goals": 3 or 4 evaluation goals for scoring the participant afterwards: "name", "description" (what it measures), "instructions" (how to score; must state the range "Score 1-10" and describe what high, middle and low scores mean).
Reply with the JSON object only.`;

export function generationMessages(input: GenerationInput) {
  const parts = [
    `Session length: ${input.duration} minutes.`,
    `What the user asked for:\n${input.userInput || '(nothing beyond the attached document)'}`,
  ];
  if (input.document)
    parts.push(`Attached document (a résumé or job description):\n"""\n${input.document}\n"""`);
  return [
    { role: 'system' as const, content: SYSTEM },
    { role: 'user' as const, content: parts.join('\n\n') },
  ];
}

export async function generateWithLlm(
  llm: LlmClient,
  input: GenerationInput,
  signal?: AbortSignal,
): Promise<GeneratedScenario> {
  const { value } = await llm.completeJson({
    messages: generationMessages(input),
    schema: Schema,
    schemaName: 'generated_scenario',
    check: checkGenerated,
    signal,
    timeoutMs: 90_000,
  });
  return value;
}
