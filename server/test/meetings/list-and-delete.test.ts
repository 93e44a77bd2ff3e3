// GET /v1/meetings (workspace-wide list, filters, paging) and DELETE /v1/meetings/{id} (everything
// recorded of the meeting goes, meeting.deleted fires, stored files are removed by a job).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPlatformJobRunner } from '../../src/app/jobs.ts';
import { STRONG_INTERVIEW } from '../../src/platform/analyses/engine/test-fixtures.ts';
import { createScenario, insertEndedMeeting, startAnalysisPlatform } from '../analyses/helpers.ts';
import { type ApiClient, expectError, expectErrorCode, ok, type TestPlatform } from '../harness.ts';

let t: TestPlatform;
let ws: ApiClient;
let other: ApiClient;
let scenarioId: string;
let secondScenarioId: string;

const HOUR = 3_600_000;

before(async () => {
  t = await startAnalysisPlatform();
  ws = await t.workspace();
  other = await t.workspace();
  ({ scenarioId } = await createScenario(ws));
  // A second scenario with a name of its own, for the scenario filter and the search.
  const list = ok(await ws.call('GET', '/scenarios'), 200).data as Array<{ id: string; name: string }>;
  secondScenarioId = list.find((s) => s.id !== scenarioId)!.id;
});
after(() => t.close());

async function runJobs() {
  await createPlatformJobRunner(t.deps).drain();
}

describe('GET /meetings', () => {
  const ids: Record<string, string> = {};

  before(async () => {
    // Oldest first, an hour apart: Ada (analysed), Bob (active), Ada Lovelace (created), Carl (2nd scenario).
    ids.ada = (
      await insertEndedMeeting(t, ws.accountId, scenarioId, STRONG_INTERVIEW, { personName: 'Ada' })
    ).meetingId;
    await runJobs();
    t.clock.advance(HOUR);
    ids.bob = (
      await insertEndedMeeting(t, ws.accountId, scenarioId, STRONG_INTERVIEW, {
        personName: 'Bob 100%',
        status: 'active',
      })
    ).meetingId;
    t.clock.advance(HOUR);
    ids.lovelace = ok(
      await ws.call('POST', '/meetings', { scenario_id: scenarioId, person_name: 'Ada Lovelace' }),
      201,
    ).data.id;
    t.clock.advance(HOUR);
    ids.carl = ok(
      await ws.call('POST', '/meetings', { scenario_id: secondScenarioId, person_name: 'Carl' }),
      201,
    ).data.id;
    // Another workspace's meeting never shows.
    const { scenarioId: foreign } = await createScenario(other);
    ok(await other.call('POST', '/meetings', { scenario_id: foreign, person_name: 'Ada' }), 201);
  });

  const names = (body: { data: Array<{ person_name: string | null }> }) =>
    body.data.map((m) => m.person_name);

  test('lists the workspace’s meetings newest first, whole when neither limit nor cursor is sent', async () => {
    const body = ok(await ws.call('GET', '/meetings'), 200);
    assert.deepEqual(Object.keys(body), ['data']);
    assert.deepEqual(names(body), ['Carl', 'Ada Lovelace', 'Bob 100%', 'Ada']);
    const ada = body.data[3];
    const scenario = ok(await ws.call('GET', `/scenarios/${scenarioId}`), 200);
    assert.deepEqual(Object.keys(ada).sort(), [
      'analysis_status',
      'average_score',
      'created_at',
      'duration_seconds',
      'ended_at',
      'id',
      'meeting_url',
      'person_name',
      'scenario_id',
      'scenario_name',
      'status',
    ]);
    assert.equal(ada.id, ids.ada);
    assert.equal(ada.scenario_name, scenario.name);
    assert.equal(ada.status, 'ended');
    assert.equal(ada.analysis_status, 'completed');
    assert.equal(typeof ada.average_score, 'number');
    const analysis = ok(await ws.call('GET', `/analyses/meeting/${ids.ada}`), 200);
    assert.equal(ada.average_score, (analysis.data ?? analysis).average_score);
    assert.ok(ada.duration_seconds > 0);
    assert.ok(ada.meeting_url.endsWith(`/meetings/${ids.ada}`));
    const carl = body.data[0];
    assert.equal(carl.status, 'created');
    assert.equal(carl.average_score, null);
    assert.equal(carl.ended_at, null);
    assert.equal(carl.scenario_id, secondScenarioId);
  });

  test('pages with limit and cursor', async () => {
    const first = ok(await ws.call('GET', '/meetings?limit=3'), 200);
    assert.equal(first.object, 'list');
    assert.equal(first.has_more, true);
    assert.deepEqual(names(first), ['Carl', 'Ada Lovelace', 'Bob 100%']);
    const second = ok(
      await ws.call('GET', `/meetings?limit=3&cursor=${encodeURIComponent(first.next_cursor)}`),
      200,
    );
    assert.deepEqual(names(second), ['Ada']);
    assert.equal(second.has_more, false);
    assert.equal(second.next_cursor, null);
    // A cursor of another list, or another workspace's, is refused.
    const scenarios = ok(await ws.call('GET', '/scenarios?limit=1'), 200);
    expectError(await ws.call('GET', `/meetings?cursor=${scenarios.next_cursor}`), 400, 'cursor');
    expectError(
      await other.call('GET', `/meetings?cursor=${encodeURIComponent(first.next_cursor)}`),
      400,
      'cursor',
    );
    expectError(await ws.call('GET', '/meetings?limit=0'), 400, 'limit');
  });

  test('filters by scenario, status, participant name and creation time', async () => {
    assert.deepEqual(names(ok(await ws.call('GET', `/meetings?scenario_id=${secondScenarioId}`))), ['Carl']);
    assert.deepEqual(names(ok(await ws.call('GET', '/meetings?scenario_id=not-a-uuid'))), []);
    assert.deepEqual(names(ok(await ws.call('GET', '/meetings?status=active'))), ['Bob 100%']);
    assert.deepEqual(names(ok(await ws.call('GET', '/meetings?status=ended'))), ['Ada']);
    // person_name: a case-insensitive prefix (an exact name matches too).
    assert.deepEqual(names(ok(await ws.call('GET', '/meetings?person_name=ada'))), ['Ada Lovelace', 'Ada']);
    assert.deepEqual(names(ok(await ws.call('GET', '/meetings?person_name=ADA%20LOVELACE'))), [
      'Ada Lovelace',
    ]);
    assert.deepEqual(names(ok(await ws.call('GET', '/meetings?person_name=Lovelace'))), []);
    // Wildcards are text: `%` matches only a percent sign.
    assert.deepEqual(names(ok(await ws.call('GET', '/meetings?person_name=%25'))), []);
    assert.deepEqual(names(ok(await ws.call('GET', '/meetings?q=100%25'))), ['Bob 100%']);
    const created = ok(await ws.call('GET', '/meetings')).data as Array<{ created_at: string }>;
    const at = created[1]!.created_at; // Ada Lovelace's
    assert.deepEqual(names(ok(await ws.call('GET', `/meetings?created_after=${at}`))), [
      'Carl',
      'Ada Lovelace',
    ]);
    assert.deepEqual(names(ok(await ws.call('GET', `/meetings?created_before=${at}`))), ['Bob 100%', 'Ada']);
    assert.deepEqual(
      names(
        ok(await ws.call('GET', `/meetings?created_after=${created[2]!.created_at}&created_before=${at}`)),
      ),
      ['Bob 100%'],
    );
    expectError(await ws.call('GET', '/meetings?created_after=yesterday'), 400, 'created_after');
    // An offset's `+` must be sent as %2B: a bare one reads as a space.
    expectError(
      await ws.call('GET', '/meetings?created_after=2026-11-01T09:00:00+01:00'),
      400,
      'created_after',
    );
    ok(await ws.call('GET', '/meetings?created_after=2026-11-01T09:00:00%2B01:00'), 200);
    expectError(
      await ws.call('GET', `/meetings?created_after=${at}&created_before=${created[2]!.created_at}`),
      400,
      'created_before',
    );
    expectError(await ws.call('GET', '/meetings?status=finished'), 400, 'status');
    expectError(await ws.call('GET', '/meetings?person=ada'), 400, 'person');
  });

  test('q searches participant and scenario names, ignoring case', async () => {
    assert.deepEqual(names(ok(await ws.call('GET', '/meetings?q=LOVE'))), ['Ada Lovelace']);
    const second = ok(await ws.call('GET', `/scenarios/${secondScenarioId}`), 200);
    const word = second.name.split(' ')[0].toLowerCase();
    const found = names(ok(await ws.call('GET', `/meetings?q=${encodeURIComponent(word)}`)));
    assert.ok(found.includes('Carl'), `${word}: ${found}`);
    assert.deepEqual(names(ok(await ws.call('GET', '/meetings?q=zzzz'))), []);
    // Filters combine.
    assert.deepEqual(names(ok(await ws.call('GET', '/meetings?q=ada&status=created'))), ['Ada Lovelace']);
  });
});

describe('DELETE /meetings/{id}', () => {
  test('removes the meeting and everything recorded of it, and fires meeting.deleted', async () => {
    const { meetingId, transcriptId } = await insertEndedMeeting(
      t,
      ws.accountId,
      scenarioId,
      STRONG_INTERVIEW,
    );
    await runJobs();
    ok(await ws.call('POST', `/meetings/${meetingId}/feedback`, { rating: 'good' }), 201);
    // A recording with its two stored objects.
    const { storage, db } = t.deps;
    const media = `recordings/${ws.accountId}/${meetingId}/media-test.webm`;
    const thumbnail = `recordings/${ws.accountId}/${meetingId}/thumbnail-test.jpg`;
    await storage.put(media, Buffer.from('webm bytes'), 'video/webm');
    await storage.put(thumbnail, Buffer.from('jpg bytes'), 'image/jpeg');
    const now = t.clock.now();
    await db
      .insertInto('recordings')
      .values({
        id: crypto.randomUUID(),
        meeting_id: meetingId,
        account_id: ws.accountId,
        scenario_id: scenarioId,
        status: 'ready',
        media_key: media,
        media_content_type: 'video/webm',
        media_size: 10,
        thumbnail_key: thumbnail,
        thumbnail_content_type: 'image/jpeg',
        thumbnail_size: 9,
        created_at: now,
        updated_at: now,
        ready_at: now,
      })
      .execute();
    ok(await ws.call('GET', `/recordings/meeting/${meetingId}`), 200);
    ok(await ws.call('GET', `/analyses/meeting/${meetingId}`), 200);

    // Another workspace cannot delete it.
    expectErrorCode(await other.call('DELETE', `/meetings/${meetingId}`), 404, 'resource_not_found');

    t.clock.advance(1000);
    const deleted = ok(await ws.call('DELETE', `/meetings/${meetingId}`), 200);
    assert.deepEqual(deleted, { id: meetingId, object: 'meeting', deleted: true });

    for (const url of [
      `/meetings/${meetingId}`,
      `/meetings/${meetingId}/feedback`,
      `/analyses/meeting/${meetingId}`,
      `/transcripts/meeting/${meetingId}`,
      `/recordings/meeting/${meetingId}`,
    ]) {
      const response = await ws.call('GET', url);
      assert.equal(response.statusCode, 404, `${url}: ${response.body}`);
    }
    for (const table of [
      'transcript_sentences',
      'meeting_participants',
      'meeting_feedback',
      'analyses',
    ] as const) {
      const rows = await db
        .selectFrom(table)
        .select('meeting_id')
        .where('meeting_id', '=', meetingId)
        .execute();
      assert.equal(rows.length, 0, table);
    }
    const results = await db
      .selectFrom('analysis_goal_results')
      .select('id')
      .where('account_id', '=', ws.accountId)
      .execute();
    const analyses = await db
      .selectFrom('analyses')
      .select('id')
      .where('account_id', '=', ws.accountId)
      .execute();
    // Only the list test's analysed meeting keeps goal results.
    assert.equal(analyses.length, 1);
    assert.ok(results.length > 0);
    const transcripts = await db
      .selectFrom('transcripts')
      .select('id')
      .where('id', '=', transcriptId)
      .execute();
    assert.equal(transcripts.length, 0);
    assert.ok(!ok(await ws.call('GET', '/meetings')).data.some((m: { id: string }) => m.id === meetingId));

    // The stored files go once the purge job runs.
    assert.ok(await storage.head(media));
    await runJobs();
    assert.equal(await storage.head(media), null);
    assert.equal(await storage.head(thumbnail), null);

    // meeting.deleted is in the meeting's event log, after what it fired before.
    const events = ok(await ws.call('GET', `/events?meeting_id=${meetingId}`), 200).data;
    assert.equal(events[0].type, 'meeting.deleted');
    assert.equal(events[0].data.meeting_id, meetingId);
    assert.equal(events[0].data.scenario_id, scenarioId);
    assert.equal(events[0].data.reason, 'api');
    assert.equal(events[0].data.deleted_at, t.clock.now().toISOString());
    assert.ok(events.some((event: { type: string }) => event.type === 'session.analysis_complete'));

    // Gone: a second delete is a 404.
    expectErrorCode(await ws.call('DELETE', `/meetings/${meetingId}`), 404, 'resource_not_found');
  });

  test('a running meeting answers 409 meeting_active; created and ended ones delete at once', async () => {
    const active = await insertEndedMeeting(t, ws.accountId, scenarioId, STRONG_INTERVIEW, {
      status: 'active',
      enqueue: false,
    });
    const refused = expectErrorCode(
      await ws.call('DELETE', `/meetings/${active.meetingId}`),
      409,
      'meeting_active',
    );
    assert.match(refused.error.message, /PUT \/meetings\/\{id\}\/end/);
    ok(await ws.call('GET', `/meetings/${active.meetingId}`), 200);
    ok(await ws.call('PUT', `/meetings/${active.meetingId}/end`), 200);
    ok(await ws.call('DELETE', `/meetings/${active.meetingId}`), 200);
    // The finalisation queued by the end finds nothing to do, and does not fail.
    await runJobs();
    const failed = await t.deps.db
      .selectFrom('jobs')
      .select(['name', 'state'])
      .where('state', '=', 'failed')
      .execute();
    assert.deepEqual(failed, []);

    const created = ok(await ws.call('POST', '/meetings', { scenario_id: scenarioId }), 201).data;
    ok(await ws.call('DELETE', `/meetings/${created.id}`), 200);
    expectErrorCode(await ws.call('DELETE', '/meetings/not-a-uuid'), 404, 'resource_not_found');
  });
});
