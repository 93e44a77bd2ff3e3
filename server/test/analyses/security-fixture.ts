import { STRONG_INTERVIEW } from '../../src/platform/analyses/engine/test-fixtures.ts';
import { ok } from '../harness.ts';
import type { SecurityFixture } from '../security.ts';
import { analysisRunner, createScenario, insertEndedMeeting, startAnalysisPlatform } from './helpers.ts';

export const analysesSecurity: SecurityFixture = {
  resource: 'analyses',
  start: () => startAnalysisPlatform(),
  routes: {
    'GET /analyses': { noForeignIds: 'lists the caller’s workspace' },
    'GET /analyses/meeting/{meetingId}': {},
    'GET /analyses/scenario/{scenarioId}': {},
    'GET /analyses/{id}': {},
    'POST /analyses/trigger/{meetingId}': {},
  },
  async setup(ws, t) {
    const { scenarioId } = await createScenario(ws);
    const { meetingId } = await insertEndedMeeting(t, ws.accountId, scenarioId, STRONG_INTERVIEW);
    t.clock.advance(1_000);
    await analysisRunner(t).drain();
    const analysis = ok(await ws.call('GET', `/analyses/meeting/${meetingId}`));
    return { id: analysis.id, meetingId, scenarioId };
  },
};
