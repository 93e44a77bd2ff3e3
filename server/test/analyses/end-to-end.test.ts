// From PUT /meetings/{id}/end to the embedded analysis, through the meetings API and the whole
// job catalog (meeting.finalize, then analysis.run). The conversation is written to the
// transcript tables directly, as the room would have during the call.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPlatformJobRunner } from '../../src/app/jobs.ts';
import { STRONG_INTERVIEW } from '../../src/platform/analyses/engine/test-fixtures.ts';
import { type ApiClient, ok, type TestPlatform } from '../harness.ts';
import { createScenario, eventsOf, type ScenarioSetup, startAnalysisPlatform } from './helpers.ts';

describe('analysis after PUT /meetings/{id}/end', () => {
  let t: TestPlatform;
  let caller: ApiClient;
  let setup: ScenarioSetup;

  before(async () => {
    t = await startAnalysisPlatform();
    caller = await t.workspace();
    setup = await createScenario(caller, { sessionOptions: { memory_enabled: true } });
  });
  after(() => t.close());

  it('runs after transcript.ready and embeds the analysis in the meeting read', async () => {
    const created = ok(
      await caller.call('POST', '/meetings', { scenario_id: setup.scenarioId, person_name: 'Priya Raman' }),
      201,
    ).data;
    const meetingId: string = created.id;
    const { db } = t.deps;
    const startedAt = t.clock.now();
    await db
      .updateTable('meetings')
      .set({ status: 'active', started_at: startedAt, updated_at: startedAt })
      .where('id', '=', meetingId)
      .execute();
    const transcript = await db
      .selectFrom('transcripts')
      .select('id')
      .where('meeting_id', '=', meetingId)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('transcript_sentences')
      .values(
        STRONG_INTERVIEW.map((turn, index) => ({
          transcript_id: transcript.id,
          meeting_id: meetingId,
          account_id: caller.accountId,
          speaker: turn.speaker,
          message: turn.message,
          start_ms: turn.startSeconds * 1000,
          end_ms: null,
          sequence_number: index + 1,
          created_at: startedAt,
        })),
      )
      .execute();
    t.clock.advance(200_000);

    ok(await caller.call('PUT', `/meetings/${meetingId}/end`));
    const runner = createPlatformJobRunner(t.deps);
    assert.deepEqual(
      (await runner.runOnce()).map((job) => [job.name, job.outcome]),
      [['meeting.finalize', 'succeeded']],
    );
    t.clock.advance(1_000);
    assert.deepEqual(
      (await runner.drain()).map((job) => [job.name, job.outcome]),
      [['analysis.run', 'succeeded']],
    );

    const meeting = ok(await caller.call('GET', `/meetings/${meetingId}`)).data;
    assert.equal(meeting.analysis_status, 'completed');
    assert.equal(meeting.summary, meeting.analysis.summary);
    assert.equal(meeting.analysis.conversation_length, 200);
    assert.equal(meeting.analysis.goal_results.length, 3);
    assert.equal(meeting.analysis.goal_results[0].goal.id, setup.goalIds[0]);
    const events = (await eventsOf(t, meetingId)).map((e) => e.event);
    assert.equal(events[0], 'meeting.created');
    assert.deepEqual(events.slice(1, 3).sort(), ['meeting.ended', 'transcript.ready']);
    assert.deepEqual(events.slice(3), ['session.analysis_complete']);

    // The memory container the meeting was created with received the facts.
    const memories = await db
      .selectFrom('memories')
      .select(['user_memory_tag', 'source_meeting_id'])
      .where('source_meeting_id', '=', meetingId)
      .execute();
    assert.ok(memories.length > 0);
    const row = await db
      .selectFrom('meetings')
      .select('memory_tag')
      .where('id', '=', meetingId)
      .executeTakeFirstOrThrow();
    assert.ok(memories.every((memory) => memory.user_memory_tag === row.memory_tag));
  });
});
