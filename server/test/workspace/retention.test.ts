// GET/PATCH /v1/workspace, and the retention sweep: ended meetings older than
// meeting_retention_days are deleted as DELETE /meetings/{id} deletes them, on the fake clock.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPlatformJobRunner } from '../../src/app/jobs.ts';
import { STRONG_INTERVIEW } from '../../src/platform/analyses/engine/test-fixtures.ts';
import { RETENTION_SWEEP_INTERVAL_MS } from '../../src/platform/meetings/retention.ts';
import { createScenario, insertEndedMeeting, startAnalysisPlatform } from '../analyses/helpers.ts';
import { type ApiClient, expectError, ok, startPlatform, type TestPlatform } from '../harness.ts';

const DAY = 86_400_000;

let t: TestPlatform;
let ws: ApiClient;

before(async () => {
  t = await startAnalysisPlatform();
  ws = await t.workspace();
});
after(() => t.close());

describe('/workspace', () => {
  test('names the configured model as the persona engine when LLM_BASE_URL is set', async () => {
    const withModel = await startPlatform({
      env: { LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'qwen2.5:7b-instruct' },
    });
    try {
      const read = ok(await (await withModel.workspace()).call('GET', '/workspace'), 200);
      assert.equal(read.persona_engine, 'llm');
      assert.equal(read.persona_model, 'qwen2.5:7b-instruct');
    } finally {
      await withModel.close();
    }
  });

  test('reads and updates the name and the retention', async () => {
    const initial = ok(await ws.call('GET', '/workspace'), 200);
    assert.equal(initial.id, ws.accountId);
    assert.equal(initial.meeting_retention_days, null);
    assert.equal(typeof initial.name, 'string');
    assert.ok(initial.created_at);
    // No LLM_BASE_URL here: the embedded script engine plays the personas.
    assert.equal(initial.persona_engine, 'offline');
    assert.equal(initial.persona_model, null);

    const updated = ok(await ws.call('PATCH', '/workspace', { meeting_retention_days: 30 }), 200);
    assert.deepEqual(updated, { ...initial, meeting_retention_days: 30 });
    const renamed = ok(await ws.call('PATCH', '/workspace', { name: '  Coaching team ' }), 200);
    assert.equal(renamed.name, 'Coaching team');
    assert.equal(renamed.meeting_retention_days, 30);
    assert.deepEqual(ok(await ws.call('GET', '/workspace'), 200), renamed);
    assert.deepEqual(ok(await ws.call('PATCH', '/workspace', {}), 200), renamed);
    const forever = ok(await ws.call('PATCH', '/workspace', { meeting_retention_days: null }), 200);
    assert.equal(forever.meeting_retention_days, null);
  });

  test('refuses bad values, naming the parameter', async () => {
    expectError(
      await ws.call('PATCH', '/workspace', { meeting_retention_days: 0 }),
      400,
      'meeting_retention_days',
    );
    expectError(
      await ws.call('PATCH', '/workspace', { meeting_retention_days: 3651 }),
      400,
      'meeting_retention_days',
    );
    expectError(
      await ws.call('PATCH', '/workspace', { meeting_retention_days: 1.5 }),
      400,
      'meeting_retention_days',
    );
    expectError(
      await ws.call('PATCH', '/workspace', { meeting_retention_days: '30' }),
      400,
      'meeting_retention_days',
    );
    expectError(await ws.call('PATCH', '/workspace', { name: '   ' }), 400, 'name');
    expectError(await ws.call('PATCH', '/workspace', { id: 'x' }), 400, 'id');
    ok(await ws.call('PATCH', '/workspace', { meeting_retention_days: 3650 }), 200);
    ok(await ws.call('PATCH', '/workspace', { meeting_retention_days: 1 }), 200);
    ok(await ws.call('PATCH', '/workspace', { meeting_retention_days: null }), 200);
  });
});

describe('retention', () => {
  test('deletes ended meetings older than the retention, as DELETE does, and nothing else', async () => {
    const { scenarioId } = await createScenario(ws);
    const keeper = await t.workspace();
    const { scenarioId: keeperScenario } = await createScenario(keeper);
    const insert = (client: ApiClient, scenario: string, options = {}) =>
      insertEndedMeeting(t, client.accountId, scenario, STRONG_INTERVIEW, { enqueue: false, ...options });

    const old = await insert(ws, scenarioId);
    const running = await insert(ws, scenarioId, { status: 'active' });
    const keptElsewhere = await insert(keeper, keeperScenario); // keeps meetings forever
    t.clock.advance(DAY);
    // Created but never joined: due by its creation, a day after `old`.
    const notStarted = await insert(ws, scenarioId, { status: 'created' });
    t.clock.advance(4 * DAY);
    const recent = await insert(ws, scenarioId);
    ok(await ws.call('PATCH', '/workspace', { meeting_retention_days: 7 }), 200);

    // Scoped to these workspaces: other test files' workspaces on a shared database are not ours.
    const sweep = async () => [
      ...(await t.deps.meetings.retention.sweep({ accountId: ws.accountId })),
      ...(await t.deps.meetings.retention.sweep({ accountId: keeper.accountId })),
    ];
    t.clock.advance(2 * DAY - 1000); // `old` ended 7 days minus a second ago
    assert.deepEqual(await sweep(), []);
    t.clock.advance(2000);
    assert.deepEqual(await sweep(), [old.meetingId]);
    assert.deepEqual(await sweep(), []);

    const left = ok(await ws.call('GET', '/meetings'))
      .data.map((m: { id: string }) => m.id)
      .sort();
    assert.deepEqual(left, [recent.meetingId, running.meetingId, notStarted.meetingId].sort());
    ok(await keeper.call('GET', `/meetings/${keptElsewhere.meetingId}`), 200);
    const event = ok(await ws.call('GET', `/events?meeting_id=${old.meetingId}&type=meeting.deleted`)).data;
    assert.equal(event.length, 1);
    assert.deepEqual(event[0].data, {
      meeting_id: old.meetingId,
      scenario_id: scenarioId,
      deleted_at: t.clock.now().toISOString(),
      reason: 'retention',
    });

    // Five days later the never-joined one and the recent one are due too.
    t.clock.advance(5 * DAY);
    assert.deepEqual(await sweep(), [notStarted.meetingId, recent.meetingId]);
  });

  test('runs as a job queued once per slot by the periodic worker', async () => {
    const { scenarioId } = await createScenario(ws);
    ok(await ws.call('PATCH', '/workspace', { meeting_retention_days: 1 }), 200);
    const meeting = await insertEndedMeeting(t, ws.accountId, scenarioId, STRONG_INTERVIEW, {
      enqueue: false,
    });
    t.clock.advance(2 * DAY);
    const { retention } = t.deps.meetings;
    const first = await retention.enqueueSweep();
    assert.equal(first.enqueued, true);
    // A second tick in the same slot (another instance's) queues nothing.
    assert.equal((await retention.enqueueSweep()).enqueued, false);
    await createPlatformJobRunner(t.deps).drain();
    const gone = await ws.call('GET', `/meetings/${meeting.meetingId}`);
    assert.equal(gone.statusCode, 404);
    const job = await t.deps.db
      .selectFrom('jobs')
      .select('state')
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    assert.equal(job.state, 'succeeded');
    t.clock.advance(RETENTION_SWEEP_INTERVAL_MS);
    assert.equal((await retention.enqueueSweep()).enqueued, true);
    ok(await ws.call('PATCH', '/workspace', { meeting_retention_days: null }), 200);
  });
});
