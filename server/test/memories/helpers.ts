import assert from 'node:assert/strict';
import type { ApiClient } from '../harness.ts';

/** Adds memories under `tag` through the API (201 asserted) and returns what was created and skipped. */
export async function add(
  c: ApiClient,
  tag: string,
  memories: unknown[],
  extra: Record<string, unknown> = {},
) {
  const response = await c.call('POST', '/memories', { user_memory_tag: tag, memories, ...extra });
  assert.equal(response.statusCode, 201, response.body);
  return response.json().data as {
    created: Array<Record<string, unknown> & { id: string; content: string }>;
    skipped: Array<{ content: string; reason: string }>;
  };
}
