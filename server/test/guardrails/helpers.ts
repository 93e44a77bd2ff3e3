import assert from 'node:assert/strict';
import type { ApiClient } from '../harness.ts';

let n = 0;
/** Guardrail names are unique per workspace; tests make their own distinct ones. */
export const uniqueName = (prefix = 'rule') => `${prefix}-${++n}-${Date.now()}`;

/** Creates a guardrail through the API (201 asserted) and returns its `data`. */
export async function createGuardrail(c: ApiClient, body: Record<string, unknown> = {}) {
  const response = await c.call('POST', '/guardrails', {
    guardrail_name: uniqueName(),
    guardrail_prompt: `Prompt number ${n}.`,
    ...body,
  });
  assert.equal(response.statusCode, 201, response.body);
  return response.json().data;
}
