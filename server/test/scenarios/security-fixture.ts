import { createAuthoring } from '../fixtures/objects.ts';
import { ok } from '../harness.ts';
import type { SecurityFixture } from '../security.ts';

// docs/authoring.md: "an id of another workspace inside a body (a persona_id, a goal in goals, a
// scenario in scenarios) answers 400 naming the field".
const BODY_IDS = { status: 400, because: 'docs/authoring.md' } as const;

const scenario = (ids: Record<string, string>) => ({
  name: 'Security scenario',
  type: 'interview',
  persona_id: ids.personaId,
  goals: [ids.goalId],
});

export const scenariosSecurity: SecurityFixture = {
  resource: 'scenarios',
  routes: {
    'POST /scenarios': { body: scenario, refs: ['personaId', 'goalId'], refsAnswer: BODY_IDS },
    'GET /scenarios': { noForeignIds: 'lists the caller’s workspace' },
    'GET /scenarios/{id}': {},
    'PUT /scenarios/{id}': { body: scenario, refs: ['personaId', 'goalId'], refsAnswer: BODY_IDS },
    'DELETE /scenarios/{id}': {},
    'PUT /scenarios/{id}/session-options': { body: () => ({ recording_enabled: false }) },
    'GET /scenarios/{id}/export': {},
    'GET /scenarios/{id}/prompt-preview': { scopes: ['scenarios:read', 'guardrails:read', 'memories:read'] },
    'POST /scenarios/import': {
      body: (ids) => JSON.parse(ids.exported!),
      noForeignIds: 'an export carries no ids: the import re-creates everything in the caller’s workspace',
      scopes: [
        'scenarios:write',
        'personas:write',
        'goals:write',
        'guardrails:write',
        'custom_functions:write',
      ],
    },
    'POST /scenarios/create-with-gpt': {
      noForeignIds: 'creates in the caller’s workspace from text',
      scopes: ['scenarios:write', 'personas:write', 'goals:write'],
    },
    // The path names the scenario (docs/authoring.md), whatever the placeholder is called.
    'GET /scenarios/membership/{id}/meetings': {},
  },
  async setup(ws) {
    const { personaId, goalId, scenarioId } = await createAuthoring(ws);
    const exported = JSON.stringify(ok(await ws.call('GET', `/scenarios/${scenarioId}/export`)));
    return { id: scenarioId, personaId, goalId, exported };
  },
};
