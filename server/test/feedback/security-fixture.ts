import { insertMeeting, insertScenario } from '../fixtures/rows.ts';
import type { SecurityFixture } from '../security.ts';

export const feedbackSecurity: SecurityFixture = {
  resource: 'post-call feedback',
  routes: {
    'GET /meetings/feedback/catalog': {
      noForeignIds: 'one catalog for every workspace (docs/guardrails-memories-functions.md)',
    },
    'POST /meetings/{id}/feedback': { body: () => ({ rating: 'good' }) },
    'GET /meetings/{id}/feedback': {},
  },
  async setup(ws, t) {
    const scenarioId = await insertScenario(t.deps, ws.accountId);
    return { id: await insertMeeting(t.deps, ws.accountId, scenarioId) };
  },
};
