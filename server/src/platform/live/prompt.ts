// The persona's system prompt, assembled once at the meeting's first join and frozen for the
// call (docs/live-engine.md). Order: who the persona is, how to talk, the scenario script, the
// per-session note, remembered facts, and the guardrails block last. Goals never appear: they
// score the meeting afterwards and must stay invisible to the participant's side.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import { buildGuardrailsBlock } from '../guardrails/block.ts';
import type { MeetingContext } from './context.ts';
import { liveRepository } from './repository.ts';

/** Facts read from the memory container at the start (newest first). */
export const MEMORY_FACTS_LIMIT = 50;

export interface PromptInput {
  persona: {
    name: string;
    job_title: string | null;
    demeanor: string | null;
    background: string | null;
  } | null;
  scenario: { name: string; type: string; prompt: string; description: string | null };
  participantName: string | null;
  noteContext: string | null;
  memories: string[];
  guardrails: string | null;
  tools: { endCall: boolean; webSearch: boolean; customFunctions: string[] };
}

export function buildSystemPrompt(input: PromptInput): string {
  const { persona, scenario } = input;
  const sections: string[] = [];
  const who = persona
    ? `You are ${persona.name}${persona.job_title ? `, ${persona.job_title}` : ''}.`
    : 'You are the host of this session.';
  const identity = [who];
  if (persona?.demeanor) identity.push(`Your demeanor is ${persona.demeanor}.`);
  if (persona?.background?.trim()) identity.push(`Background: ${persona.background.trim()}`);
  sections.push(identity.join(' '));

  const participant = input.participantName?.trim();
  sections.push(
    [
      `You are in a live spoken conversation (${scenario.type}: "${scenario.name}")` +
        (participant ? ` with ${participant}.` : ' with a participant.'),
      'Everything you write is read aloud: speak naturally in short turns of one to three sentences,',
      'ask one question at a time, and never use Markdown, lists, emojis or stage directions.',
      'Stay in character for the whole call.',
    ].join(' '),
  );

  if (scenario.prompt.trim()) sections.push(`## Script\n\n${scenario.prompt.trim()}`);
  if (input.noteContext?.trim()) sections.push(`## Session context\n\n${input.noteContext.trim()}`);
  if (input.memories.length > 0) {
    sections.push(
      `## What you remember about the participant\n\n${input.memories.map((fact) => `- ${fact}`).join('\n')}`,
    );
  }
  const tools: string[] = [];
  if (input.tools.endCall) {
    tools.push(
      'Call end_call when the conversation is complete (say a short goodbye first) or when the participant asks to end it.',
    );
  }
  if (input.tools.webSearch) tools.push('Use web_search only for facts you need and do not know.');
  if (input.tools.customFunctions.length > 0) {
    tools.push(
      `You may call these functions when the script calls for them: ${input.tools.customFunctions.join(', ')}.`,
    );
  }
  if (tools.length > 0) sections.push(`## Tools\n\n${tools.join(' ')}`);
  // Last, so nothing after it can override it (spec: Guardrail behaviour 1).
  if (input.guardrails) sections.push(input.guardrails);
  return sections.join('\n\n');
}

/** The tools a meeting offers, as the prompt names them: end_call always, web_search when configured. */
export function promptTools(webSearch: boolean, functions: { name: string }[]): PromptInput['tools'] {
  return { endCall: true, webSearch, customFunctions: functions.map((fn) => fn.name) };
}

/** What the prompt is assembled from: a meeting's context, or a scenario previewed by its author. */
export interface PromptSource {
  accountId: string;
  scenario: PromptInput['scenario'] & { id: string; memory_enabled: boolean };
  persona: PromptInput['persona'];
  noteContext: string | null;
  /** The memory container read when the scenario's memory is on. */
  memoryTag: string | null;
}

export function promptSourceOf(context: MeetingContext): PromptSource {
  const { meeting, scenario, persona } = context;
  return {
    accountId: meeting.account_id,
    scenario,
    persona,
    noteContext: meeting.note_context,
    memoryTag: meeting.memory_tag,
  };
}

export interface AssembleDeps {
  db: Kysely<DB>;
  secretBox: SecretBox;
  logger: Logger;
}

/** Reads memories and guardrails and builds the prompt. A failing guardrail lookup is logged and skipped. */
export async function assembleSystemPrompt(
  deps: AssembleDeps,
  source: PromptSource,
  participantName: string | null,
  tools: PromptInput['tools'],
): Promise<string> {
  const { accountId, scenario, persona, memoryTag } = source;
  const [memories, guardrails] = await Promise.all([
    scenario.memory_enabled && memoryTag ? readFacts(deps, accountId, memoryTag) : Promise.resolve([]),
    buildGuardrailsBlock(deps.db, deps.secretBox, accountId, scenario.id, deps.logger),
  ]);
  return buildSystemPrompt({
    persona,
    scenario,
    participantName,
    noteContext: source.noteContext,
    memories,
    guardrails,
    tools,
  });
}

async function readFacts(deps: AssembleDeps, accountId: string, tag: string): Promise<string[]> {
  try {
    const rows = await liveRepository.memoryFacts(deps.db, accountId, tag, MEMORY_FACTS_LIMIT);
    return rows.map((row) => row.content);
  } catch (error) {
    deps.logger.warn({ err: error }, 'memories could not be read; the call starts without them');
    return [];
  }
}
