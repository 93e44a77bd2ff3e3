import { createAuthoring } from '../fixtures/objects.ts';
import { ok } from '../harness.ts';
import type { SecurityFixture } from '../security.ts';

export const eventsSecurity: SecurityFixture = {
  resource: 'the event log and the event-type catalogue',
  routes: {
    'GET /events': {
      query: (ids) => `meeting_id=${ids.meetingId}`,
      refs: ['meetingId'],
      // A filter of the caller's own event log: another workspace's meeting has no events in it
      // (and a deleted meeting's events stay readable, so the id is not looked up).
      refsAnswer: { status: 200, because: 'docs/meetings.md' },
    },
    'GET /webhooks/event-types': { noForeignIds: 'the catalogue is the same for every workspace' },
  },
  async setup(ws) {
    const { scenarioId } = await createAuthoring(ws);
    const meeting = ok(await ws.call('POST', '/meetings', { scenario_id: scenarioId }), 201).data;
    return { meetingId: meeting.id };
  },
};
