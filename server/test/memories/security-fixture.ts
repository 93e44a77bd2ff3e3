import { createAuthoring } from '../fixtures/objects.ts';
import { ok } from '../harness.ts';
import type { SecurityFixture } from '../security.ts';

// Tags are names, not ids: each workspace gets its own, so the owner's tag is unknown to the stranger.
const memories = (ids: Record<string, string>) => ({
  user_memory_tag: ids.tag,
  scenario_id: ids.scenarioId,
  memories: ['Prefers morning interviews.'],
});

export const memoriesSecurity: SecurityFixture = {
  resource: 'memories',
  routes: {
    'POST /memories': { body: memories, refs: ['scenarioId'] },
    'GET /memories': { noForeignIds: 'lists the caller’s workspace' },
    'GET /memories/tags': { query: (ids) => `scenario_id=${ids.scenarioId}`, refs: ['scenarioId'] },
    'GET /memories/tags/{tag}': {},
    'DELETE /memories/tags/{tag}': {},
    // The same two for tags the router cannot take as one parameter (memories/routes.ts).
    'GET /memories/tags/*': { params: { '*': 'tag' } },
    'DELETE /memories/tags/*': { params: { '*': 'tag' } },
    'GET /memories/{id}': {},
    'PATCH /memories/{id}': { body: () => ({ content: 'Prefers evening interviews.' }) },
    'DELETE /memories/{id}': {},
  },
  async setup(ws) {
    const { scenarioId } = await createAuthoring(ws);
    const tag = `candidate:${ws.accountId}`;
    const created = ok(await ws.call('POST', '/memories', memories({ tag, scenarioId })), 201).data.created;
    return { id: created[0].id, tag, scenarioId };
  },
};
