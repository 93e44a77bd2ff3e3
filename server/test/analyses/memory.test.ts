import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { extractMemoriesOffline } from '../../src/platform/analyses/engine/offline-memory-facts.ts';
import { STRONG_INTERVIEW } from '../../src/platform/analyses/engine/test-fixtures.ts';
import { type ApiClient, ok, type TestPlatform } from '../harness.ts';
import {
  analysisRunner,
  createScenario,
  insertEndedMeeting,
  type ScenarioSetup,
  startAnalysisPlatform,
} from './helpers.ts';

describe('analysis: memory write-back (offline extractor)', () => {
  let t: TestPlatform;
  let caller: ApiClient;
  let remembering: ScenarioSetup;
  let forgetting: ScenarioSetup;
  const expected = extractMemoriesOffline(STRONG_INTERVIEW);

  before(async () => {
    t = await startAnalysisPlatform();
    caller = await t.workspace();
    remembering = await createScenario(caller, { sessionOptions: { memory_enabled: true } });
    forgetting = await createScenario(caller, { sessionOptions: { memory_enabled: false } });
  });
  after(() => t.close());

  const container = (tag: string) =>
    t.deps.db
      .selectFrom('memories')
      .selectAll()
      .where('account_id', '=', caller.accountId)
      .where('user_memory_tag', '=', tag)
      .orderBy('seq')
      .execute();

  it('adds the facts to the participant’s default container, with the meeting as source', async () => {
    assert.ok(expected.length >= 3, `the fixture states facts: ${JSON.stringify(expected)}`);
    const { meetingId, participantId } = await insertEndedMeeting(
      t,
      caller.accountId,
      remembering.scenarioId,
      STRONG_INTERVIEW,
    );
    await analysisRunner(t).drain();
    const tag = `participant:${participantId}`;
    const rows = await container(tag);
    assert.deepEqual(
      rows.map((row) => row.content),
      expected,
    );
    for (const row of rows) {
      assert.equal(row.source, 'meeting');
      assert.equal(row.source_meeting_id, meetingId);
      assert.equal(row.source_scenario_id, remembering.scenarioId);
    }
    // Readable through the memories API like any other container.
    const listed = ok(await caller.call('GET', `/memories?user_memory_tag=${encodeURIComponent(tag)}`));
    assert.equal(listed.data.length, expected.length);

    // A re-run learns the same facts again: the dedupe rules skip them.
    t.clock.advance(1_000);
    ok(await caller.call('POST', `/analyses/trigger/${meetingId}`), 202);
    await analysisRunner(t).drain();
    assert.equal((await container(tag)).length, expected.length);
  });

  it('uses the tag given at meeting creation, and skips facts the container already holds', async () => {
    const tag = 'crm:contact-42';
    ok(
      await caller.call('POST', '/memories', {
        user_memory_tag: tag,
        memories: [`- ${expected[0]!.toUpperCase().replace(/\.$/, '')}`, 'Prefers morning calls.'],
      }),
      201,
    );
    const { meetingId } = await insertEndedMeeting(
      t,
      caller.accountId,
      remembering.scenarioId,
      STRONG_INTERVIEW,
      {
        userMemoryTag: tag,
      },
    );
    await analysisRunner(t).drain();
    const rows = await container(tag);
    assert.equal(rows.length, 2 + expected.length - 1, 'the already known fact is not added twice');
    assert.deepEqual(
      rows.filter((row) => row.source === 'meeting').map((row) => row.content),
      expected.slice(1),
    );
    assert.ok(
      rows.filter((row) => row.source === 'meeting').every((row) => row.source_meeting_id === meetingId),
    );
  });

  it('prefers the container the live engine recorded for the call (memory_tag)', async () => {
    const { meetingId } = await insertEndedMeeting(
      t,
      caller.accountId,
      remembering.scenarioId,
      STRONG_INTERVIEW,
      {
        enqueue: false,
      },
    );
    await t.deps.db
      .updateTable('meetings')
      .set({ memory_tag: 'team:alpha' })
      .where('id', '=', meetingId)
      .execute();
    ok(await caller.call('POST', `/analyses/trigger/${meetingId}`), 202);
    await analysisRunner(t).drain();
    assert.equal((await container('team:alpha')).length, expected.length);
  });

  it('writes nothing for scenarios with memory off', async () => {
    const { participantId } = await insertEndedMeeting(
      t,
      caller.accountId,
      forgetting.scenarioId,
      STRONG_INTERVIEW,
    );
    await analysisRunner(t).drain();
    assert.deepEqual(await container(`participant:${participantId}`), []);
  });
});
