import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { DB } from '../../../core/db/schema.ts';
import { AppError, invalidParam } from '../../../core/http/errors.ts';
import type { Principal } from '../../../core/http/principal.ts';
import { type LlmClient, LlmError } from '../../../core/llm/index.ts';
import type { GoalService } from '../../goals/service.ts';
import { type PersonaService, principalOwner } from '../../personas/service.ts';
import type { ScenarioService } from '../service.ts';
import { extractDocumentText, type UploadedFile } from './extract.ts';
import { generateWithLlm } from './llm.ts';
import { generateOffline } from './offline/generate.ts';
import type { GeneratedScenario, GenerationInput } from './schema.ts';

export const USER_INPUT_MAX = 20_000;

export interface GeneratorDeps {
  db: Kysely<DB>;
  llm: LlmClient | null;
  personas: PersonaService;
  goals: GoalService;
  scenarios: ScenarioService;
  logger: Logger;
}

export interface GenerateRequest {
  userInput?: string;
  duration?: number;
  file?: UploadedFile | null;
}

/**
 * POST /scenarios/create-with-gpt: a persona, a Markdown script and scored goals from a free-text
 * description and an optional résumé or job description. With LLM_BASE_URL set the configured
 * model writes them; otherwise the rule-based generator does (the response says which).
 */
export class ScenarioGenerator {
  constructor(private readonly deps: GeneratorDeps) {}

  get mode(): 'llm' | 'offline' {
    return this.deps.llm ? 'llm' : 'offline';
  }

  async generate(principal: Principal, request: GenerateRequest, signal?: AbortSignal) {
    const document = request.file ? await extractDocumentText(request.file) : null;
    const userInput = (request.userInput ?? '').trim();
    if (userInput.length > USER_INPUT_MAX) {
      throw invalidParam('userInput', `userInput must be at most ${USER_INPUT_MAX} characters.`);
    }
    if (!userInput && !document) {
      throw new AppError('parameter_missing', 'Describe the scenario in userInput, or upload a file.', {
        param: 'userInput',
      });
    }
    const input: GenerationInput = { userInput, document, duration: request.duration ?? 30 };
    const generated = await this.write(input, signal);
    const owner = principalOwner(principal);
    const scenarioId = await this.deps.db.transaction().execute(async (tx) => {
      const persona = await this.deps.personas.insert(tx, owner, generated.persona);
      const goalIds: string[] = [];
      for (const goal of generated.goals) goalIds.push((await this.deps.goals.insert(tx, owner, goal)).id);
      const row = await this.deps.scenarios.insert(tx, owner, {
        name: generated.scenario.name,
        type: generated.scenario.type,
        persona_id: persona.id,
        prompt: generated.scenario.prompt,
        description: generated.scenario.description,
        welcome_message: generated.scenario.welcome_message,
        call_duration: input.duration,
        goals: goalIds,
      });
      return row.id;
    });
    return {
      success: true as const,
      scenario_id: scenarioId,
      generator: this.mode,
      data: await this.deps.scenarios.get(principal, scenarioId),
    };
  }

  private async write(input: GenerationInput, signal?: AbortSignal): Promise<GeneratedScenario> {
    if (!this.deps.llm) return generateOffline(input);
    try {
      return await generateWithLlm(this.deps.llm, input, signal);
    } catch (error) {
      if (!(error instanceof LlmError)) throw error;
      this.deps.logger.warn({ err: error, code: error.code }, 'scenario generation by the LLM failed');
      const reason =
        error.code === 'invalid_reply'
          ? 'its reply did not describe a valid scenario, even after one correction'
          : error.code === 'timeout'
            ? 'it did not answer in time'
            : 'the request to it failed';
      throw new AppError(
        'upstream_error',
        `The language model could not generate the scenario: ${reason}. Try again.`,
        {
          cause: error,
        },
      );
    }
  }
}
