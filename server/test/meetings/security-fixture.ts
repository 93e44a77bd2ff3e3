import { STRONG_INTERVIEW } from '../../src/platform/analyses/engine/test-fixtures.ts';
import { insertEndedMeeting } from '../analyses/helpers.ts';
import { createAuthoring } from '../fixtures/objects.ts';
import { ok } from '../harness.ts';
import type { SecurityFixture } from '../security.ts';

export const meetingsSecurity: SecurityFixture = {
  resource: 'meetings, transcripts, recordings and usage',
  routes: {
    'POST /meetings': { body: (ids) => ({ scenario_id: ids.scenarioId }), refs: ['scenarioId'] },
    'GET /meetings': {
      query: (ids) => `scenario_id=${ids.scenarioId}`,
      refs: ['scenarioId'],
      // A filter of the caller's own meetings: another workspace's scenario matches none.
      refsAnswer: { status: 200, because: 'docs/meetings.md' },
    },
    'GET /meetings/{id}': {},
    'DELETE /meetings/{id}': {},
    'PUT /meetings/{id}/end': {},
    'GET /meetings/{id}/report': {},
    'PUT /meetings/{id}/report/comment': { body: () => ({ text: 'Well done.' }) },
    'DELETE /meetings/{id}/report/comment': {},
    'GET /transcripts/meeting/{meetingId}': {},
    'GET /sentenced-transcripts/scenario/{scenarioId}': {},
    'GET /sentenced-transcripts/{transcriptId}/{meetingId}/{scenarioId}': {},
    'GET /recordings/url-with-thumbnail/{meetingId}': {},
    'GET /recordings/meeting/{meetingId}': {},
    'GET /usage': {
      query: (ids) => `scenario_id=${ids.scenarioId}`,
      refs: ['scenarioId'],
      // A filter of the caller's own usage: another workspace's scenario counts nothing, as an
      // unknown one does (docs/live-engine.md names no 404 here; unlike GET /memories/tags).
      refsAnswer: { status: 200, because: 'docs/live-engine.md' },
    },
  },
  async setup(ws, t) {
    const { scenarioId } = await createAuthoring(ws);
    const created = ok(await ws.call('POST', '/meetings', { scenario_id: scenarioId }), 201).data;
    const ended = await insertEndedMeeting(t, ws.accountId, scenarioId, STRONG_INTERVIEW, { enqueue: false });
    return {
      id: created.id,
      meetingId: ended.meetingId,
      scenarioId,
      transcriptId: String(ended.transcriptId),
    };
  },
};
