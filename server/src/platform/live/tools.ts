// The tools the persona may call: end_call (always), web_search (when SEARCH_URL is set) and the
// scenario's custom functions. Only names and statuses reach the room, never arguments or results.
import type { CallableCustomFunction } from '../custom-functions/queries.ts';
import type { ToolSpec } from './providers/types.ts';

export const END_CALL = 'end_call';
export const WEB_SEARCH = 'web_search';

export const END_CALL_TOOL: ToolSpec = {
  type: 'function',
  function: {
    name: END_CALL,
    description:
      'End the call. Use it after saying goodbye, when the conversation is complete or the participant wants to stop.',
    parameters: {
      type: 'object',
      properties: {
        reason: {
          type: 'string',
          description:
            '`script_complete` when the script is done; anything else is recorded as the agent ending the call.',
        },
      },
      additionalProperties: false,
    },
  },
};

export const WEB_SEARCH_TOOL: ToolSpec = {
  type: 'function',
  function: {
    name: WEB_SEARCH,
    description: 'Search the web and get the top results (title, URL and a snippet).',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to search for.' } },
      required: ['query'],
      additionalProperties: false,
    },
  },
};

export function customFunctionTool(
  fn: Pick<CallableCustomFunction, 'name' | 'description' | 'parameters_schema'>,
): ToolSpec {
  return {
    type: 'function',
    function: { name: fn.name, description: fn.description, parameters: fn.parameters_schema },
  };
}

/** The tools offered for a call, in a stable order. */
export function toolsFor(options: { webSearch: boolean; functions: CallableCustomFunction[] }): ToolSpec[] {
  return [
    END_CALL_TOOL,
    ...(options.webSearch ? [WEB_SEARCH_TOOL] : []),
    ...options.functions.map(customFunctionTool),
  ];
}

/** end_call's reason argument → the meeting's end reason. */
export function endReasonOf(argumentsJson: string): 'script_complete' | 'agent_ended' {
  try {
    const parsed = JSON.parse(argumentsJson || '{}') as { reason?: unknown };
    return parsed?.reason === 'script_complete' ? 'script_complete' : 'agent_ended';
  } catch {
    return 'agent_ended';
  }
}
