import assert from 'node:assert/strict';
import type { ApiClient } from '../harness.ts';

let functionCount = 0;

/** A unique, valid custom function name. */
export const functionName = () => `tool_${++functionCount}_${Date.now()}`;

export const ORDER_LOOKUP_SCHEMA = {
  type: 'object',
  properties: { order_id: { type: 'string', description: 'Order number' } },
  required: ['order_id'],
};

/** Creates a custom function through the API (201 asserted) and returns its `data`. */
export async function createFunction(c: ApiClient, body: Record<string, unknown> = {}) {
  const response = await c.call('POST', '/custom-functions', {
    name: functionName(),
    description: 'Looks up an order.',
    parameters_schema: ORDER_LOOKUP_SCHEMA,
    webhook_url: 'https://tools.example.com/lookup',
    ...body,
  });
  assert.equal(response.statusCode, 201, response.body);
  return response.json().data;
}
