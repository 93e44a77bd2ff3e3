// The system prompt a meeting of a scenario would get, for its author (GET
// /v1/scenarios/{id}/prompt-preview): assembled by the live engine's own builder (prompt.ts) from
// the same reads a meeting's first join makes — persona, script, guardrails block, the memory
// container's facts, the tools on offer — so what the author sees is what the persona gets.
import type { Principal } from '../../core/http/principal.ts';
import { loadCustomFunctionsForCall } from '../custom-functions/queries.ts';
import { requireScenario } from '../scenarios/require.ts';
import { type AssembleDeps, assembleSystemPrompt, promptTools } from './prompt.ts';
import { liveRepository } from './repository.ts';

export interface PromptPreviewDeps extends AssembleDeps {
  /** SEARCH_URL is set: meetings offer web_search. */
  webSearch: boolean;
}

export interface PromptPreviewInput {
  person_name?: string;
  note_context?: string;
  user_memory_tag?: string;
}

export async function previewSystemPrompt(
  deps: PromptPreviewDeps,
  principal: Principal,
  scenarioId: string,
  input: PromptPreviewInput,
) {
  const { db, secretBox } = deps;
  const { id } = await requireScenario(db, principal.accountId, scenarioId, 'id');
  const scenario = await liveRepository.contextScenario(db, id);
  const persona = scenario.persona_id ? await liveRepository.contextPersona(db, scenario.persona_id) : null;
  const functions = await loadCustomFunctionsForCall(db, secretBox, principal.accountId, id);
  // The container a regular meeting the caller starts would read (meetings/service.ts).
  const memoryTag =
    input.user_memory_tag ?? (principal.membershipId ? `membership:${principal.membershipId}` : null);
  const tools = promptTools(deps.webSearch, functions);
  const systemPrompt = await assembleSystemPrompt(
    deps,
    {
      accountId: principal.accountId,
      scenario,
      persona: persona ?? null,
      noteContext: input.note_context ?? null,
      memoryTag,
    },
    input.person_name?.trim() || null,
    tools,
  );
  return {
    system_prompt: systemPrompt,
    tools: [
      ...(tools.endCall ? ['end_call'] : []),
      ...(tools.webSearch ? ['web_search'] : []),
      ...tools.customFunctions,
    ],
    memory_tag: scenario.memory_enabled ? memoryTag : null,
  };
}
