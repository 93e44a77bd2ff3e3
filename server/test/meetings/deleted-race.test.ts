// A join, an end or an upload that loses the race with DELETE /meetings/{id} (or the retention)
// finds no meeting: it must answer 404 resource_not_found, never a 500.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, test } from 'node:test';
import { AppError } from '../../src/core/http/errors.ts';
import { STRONG_INTERVIEW } from '../../src/platform/analyses/engine/test-fixtures.ts';
import { createScenario, insertEndedMeeting, startAnalysisPlatform } from '../analyses/helpers.ts';
import { type ApiClient, ok, type TestPlatform } from '../harness.ts';

let t: TestPlatform;
let ws: ApiClient;

before(async () => {
  t = await startAnalysisPlatform();
  ws = await t.workspace();
});
after(() => t.close());

const notFound = (error: unknown) => error instanceof AppError && error.code === 'resource_not_found';

test('end, activate and upload of a meeting deleted meanwhile are 404s', async () => {
  const { scenarioId } = await createScenario(ws);
  const meeting = await insertEndedMeeting(t, ws.accountId, scenarioId, STRONG_INTERVIEW, { enqueue: false });
  ok(await ws.call('DELETE', `/meetings/${meeting.meetingId}`), 200);

  const { lifecycle, recordings } = t.deps.meetings;
  await assert.rejects(lifecycle.end(meeting.meetingId, 'participant_left'), notFound);
  await assert.rejects(lifecycle.activate(meeting.meetingId, {} as never), notFound);
  const room = {
    id: meeting.meetingId,
    account_id: ws.accountId,
    scenario_id: scenarioId,
    embeddable: false,
  };
  await assert.rejects(
    recordings.upload(room, 'thumbnail', {
      contentType: 'image/png',
      contentLength: '4',
      body: Readable.from([Buffer.from('abcd')]),
    }),
    notFound,
  );
});
