// Runs one tool call of the persona between provider rounds: end_call, web_search, or one of the
// scenario's custom functions (a signed webhook). The room sees only the name and the status; the
// result (or a structured error) goes back to the model as the tool message's content.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import { loadCustomFunctionsForCall } from '../custom-functions/queries.ts';
import type { EndReason } from '../meetings/schemas.ts';
import { callCustomFunction, type FunctionCaller } from './function-call.ts';
import type { ToolStatus } from './protocol.ts';
import type { ToolCall } from './providers/types.ts';
import { END_CALL, endReasonOf, WEB_SEARCH } from './tools.ts';
import type { WebSearch } from './web-search.ts';

export interface ToolRunnerDeps {
  db: Kysely<DB>;
  clock: Clock;
  secretBox: SecretBox;
  logger: Logger;
  functionCaller: FunctionCaller;
  webSearch: WebSearch | null;
}

export interface ToolCallContext {
  meetingId: string;
  accountId: string;
  scenarioId: string;
  signal: AbortSignal;
  /** Tells the room how the call is going. */
  status(value: ToolStatus): void;
  /** end_call was called: the meeting ends after the turn. */
  endCall(reason: EndReason): void;
}

/** The tool message's content for `call`. */
export async function runTool(
  deps: ToolRunnerDeps,
  call: ToolCall,
  context: ToolCallContext,
): Promise<string> {
  const name = call.function.name;
  const { status, meetingId } = context;
  status('started');
  if (name === END_CALL) {
    context.endCall(endReasonOf(call.function.arguments));
    status('completed');
    return JSON.stringify({ ok: true, message: 'The call ends after this turn.' });
  }
  if (name === WEB_SEARCH && deps.webSearch) {
    try {
      const { query } = JSON.parse(call.function.arguments || '{}') as { query?: unknown };
      if (typeof query !== 'string' || query.trim() === '') throw new Error('query is required');
      const results = await deps.webSearch.search(query, context.signal);
      status('completed');
      return JSON.stringify({ results });
    } catch (error) {
      deps.logger.warn({ err: error, meeting_id: meetingId }, 'web_search failed');
      status('failed');
      return JSON.stringify({ error: { type: 'search_failed', message: (error as Error).message } });
    }
  }
  const functions = await loadCustomFunctionsForCall(
    deps.db,
    deps.secretBox,
    context.accountId,
    context.scenarioId,
  ).catch((error) => {
    deps.logger.warn({ err: error, meeting_id: meetingId }, 'custom functions could not be loaded');
    return [];
  });
  const fn = functions.find((candidate) => candidate.name === name);
  if (!fn) {
    status('failed');
    return JSON.stringify({
      error: { type: 'unknown_tool', message: `No tool named ${name} is available.` },
    });
  }
  const outcome = await callCustomFunction(
    deps.functionCaller,
    deps.clock,
    fn,
    call.function.arguments,
    { meetingId, scenarioId: context.scenarioId, toolCallId: call.id },
    context.signal,
  );
  if (!outcome.ok) {
    deps.logger.warn(
      { meeting_id: meetingId, function: fn.name, status: outcome.status, error: outcome.error },
      'custom function call failed; the model gets an error result',
    );
  }
  status(outcome.ok ? 'completed' : 'failed');
  return outcome.content;
}
