import { randomUUID } from 'node:crypto';
import { createAuthoring } from '../fixtures/objects.ts';
import { ok } from '../harness.ts';
import type { SecurityFixture } from '../security.ts';

export const guardrailsSecurity: SecurityFixture = {
  resource: 'guardrails and their attachments',
  routes: {
    'POST /guardrails': {
      body: () => ({ guardrail_name: `g-${randomUUID()}`, guardrail_prompt: 'Stay polite.' }),
      noForeignIds: 'creates in the caller’s workspace',
    },
    'GET /guardrails': { noForeignIds: 'lists the caller’s workspace' },
    'GET /guardrails/{id}': {},
    'PATCH /guardrails/{id}': { body: () => ({ active: false }) },
    'DELETE /guardrails/{id}': {},
    'GET /scenarios/{scenarioId}/guardrails': {},
    'POST /scenarios/{scenarioId}/guardrails/{id}/attach': { body: () => ({}) },
    'PATCH /scenarios/{scenarioId}/guardrails/{id}': { body: () => ({ active: false }) },
    'DELETE /scenarios/{scenarioId}/guardrails/{id}': {},
  },
  async setup(ws) {
    const { scenarioId } = await createAuthoring(ws);
    const guardrail = ok(
      await ws.call('POST', '/guardrails', {
        guardrail_name: `g-${randomUUID()}`,
        guardrail_prompt: 'Be kind.',
      }),
      201,
    ).data;
    ok(await ws.call('POST', `/scenarios/${scenarioId}/guardrails/${guardrail.id}/attach`));
    return { id: guardrail.id, scenarioId };
  },
};
