import { createAuthoring } from '../fixtures/objects.ts';
import type { SecurityFixture } from '../security.ts';

// docs/authoring.md: "an id of another workspace inside a body (a persona_id, a goal in goals, a
// scenario in scenarios) answers 400 naming the field".
const BODY_IDS = { status: 400, because: 'docs/authoring.md' } as const;

const goal = (ids: Record<string, string>) => ({
  name: 'Discovery questions',
  instructions: 'Score 1-10.',
  scenarios: [ids.scenarioId],
});

export const goalsSecurity: SecurityFixture = {
  resource: 'goals',
  routes: {
    'GET /goals': { noForeignIds: 'lists the caller’s workspace' },
    'POST /goals': { body: goal, refs: ['scenarioId'], refsAnswer: BODY_IDS },
    'GET /goals/{id}': {},
    'PUT /goals/{id}': { body: goal, refs: ['scenarioId'], refsAnswer: BODY_IDS },
    'DELETE /goals/{id}': {},
    'POST /goals/bulk': {
      body: (ids) => ({ goals: [goal(ids)] }),
      refs: ['scenarioId'],
      refsAnswer: BODY_IDS,
    },
  },
  async setup(ws) {
    const { goalId, scenarioId } = await createAuthoring(ws);
    return { id: goalId, scenarioId };
  },
};
