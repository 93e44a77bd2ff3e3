// The participant's results after the call (docs/room.md, "Results"): the scenario setting
// `meeting_controls.share_results_with_participant` through create, read, update, export and
// import; `GET /v1/rooms/{id}/results` refused while it is off and before the end, pending until
// the analysis completes, then the goals' scores, strengths, growth areas and what to practise
// next — never the goal's description or instructions.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPlatformJobRunner } from '../../src/app/jobs.ts';
import { type ApiClient, expectError, type ListeningPlatform, ok } from '../harness.ts';
import { createMeeting, createScenario, Participant, startLivePlatform } from '../live/helpers.ts';

let t: ListeningPlatform;
let api: ApiClient;

before(async () => {
  t = await startLivePlatform();
  api = await t.workspace();
});
after(() => t.close());

const results = (meetingId: string, token: string) =>
  t.app.inject({ url: `/v1/rooms/${meetingId}/results`, headers: { 'x-room-token': token } });

async function sharingScenario(share: boolean) {
  const { scenario } = await createScenario(api);
  const updated = ok(
    await api.call('PUT', `/scenarios/${scenario.id}`, {
      meeting_controls: { share_results_with_participant: share },
    }),
  );
  assert.equal(updated.meeting_controls.share_results_with_participant, share);
  return scenario as { id: string };
}

/** Joins, answers twice and leaves: the meeting ends with a transcript to analyse. */
async function holdMeeting(meeting: { id: string; room_token: string }) {
  const p = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
  const joined = await p.join();
  await p.next('agent.message');
  assert.equal(joined.controls.share_results_with_participant, true);
  const during = await results(meeting.id, meeting.room_token);
  expectError(during, 409, 'meetingId');
  assert.equal(during.json().error.code, 'resource_conflict');
  t.clock.advance(5_000);
  await p.say('Yes, I am ready. I have built payment systems for eight years.');
  t.clock.advance(20_000);
  await p.say(
    'I designed a ledger that handles a million writes a day, which cut reconciliation time by 40%.',
  );
  p.send({ type: 'leave' });
  await p.next('ended');
  await p.closed();
}

describe('participant results', () => {
  test('the setting is off by default and travels through read, export and import', async () => {
    const { scenario } = await createScenario(api);
    assert.equal(scenario.meeting_controls.share_results_with_participant, false);
    const created = ok(
      await api.call('POST', '/scenarios', {
        name: 'Shared results',
        type: 'interview',
        persona_id: scenario.persona_id,
        meeting_controls: { share_results_with_participant: true },
      }),
      201,
    );
    assert.equal(created.meeting_controls.share_results_with_participant, true);
    const read = ok(await api.call('GET', `/scenarios/${created.id}`));
    assert.equal(read.meeting_controls.share_results_with_participant, true);
    assert.equal(read.meeting_controls.show_timer, true, 'the other controls keep their defaults');
    const exported = ok(await api.call('GET', `/scenarios/${created.id}/export`));
    assert.equal(exported.scenario.meeting_controls.share_results_with_participant, true);
    const imported = ok(await api.call('POST', '/scenarios/import', exported), 201);
    assert.equal(imported.data.meeting_controls.share_results_with_participant, true);
    const refused = await api.call('PUT', `/scenarios/${created.id}`, {
      meeting_controls: { share_results_with_participant: 'yes' },
    });
    expectError(refused, 400);
  });

  test('after the end and the analysis, the room reads scores, strengths, growth areas and what to practise', async () => {
    const scenario = await sharingScenario(true);
    const meeting = await createMeeting(api, scenario.id);
    const before = await results(meeting.id, meeting.room_token);
    expectError(before, 409);
    await holdMeeting(meeting);

    const pending = ok(await results(meeting.id, meeting.room_token));
    assert.deepEqual(pending, { status: 'pending', results: null });

    await createPlatformJobRunner(t.deps).drain();
    const response = await results(meeting.id, meeting.room_token);
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.equal(response.headers['access-control-allow-origin'], '*');
    const body = ok(response);
    assert.equal(body.status, 'ready');
    const { goals, strengths, growth_areas, practise_next } = body.results;
    assert.equal(goals.length, 1);
    assert.equal(goals[0].name, 'Explains impact');
    assert.equal(goals[0].score_min, 1);
    assert.equal(goals[0].score_max, 10);
    assert.ok(goals[0].score >= 1 && goals[0].score <= 10);
    assert.ok(goals[0].feedback.length > 0);
    assert.ok(strengths.length > 0);
    assert.ok(Array.isArray(growth_areas));
    assert.ok(practise_next.length > 0 && practise_next.length <= 4);
    for (const item of practise_next) assert.ok(item.text.length > 0);
    // The same analysis as the owner reads it.
    const owner = ok(await api.call('GET', `/meetings/${meeting.id}`)).data;
    assert.deepEqual(strengths, owner.analysis.strengths);
    assert.equal(goals[0].score, owner.analysis.goal_results[0].score);
    // Only what helps the participant: no goal description or instructions, no owner summary.
    const raw = response.body;
    assert.doesNotMatch(raw, /SECRET-GOAL-INSTRUCTIONS|Talks about results/);
    assert.ok(!raw.includes(owner.analysis.summary));

    // The learner report's evidence (the participant's own sentences) and the coach's comment.
    const said = ['Yes, I am ready. I have built payment systems', 'I designed a ledger'];
    assert.ok(goals[0].evidence.length > 0);
    for (const quote of goals[0].evidence) {
      assert.ok(
        said.some((start) => quote.text.startsWith(start)),
        quote.text,
      );
    }
    assert.equal(body.results.coach_comment, null);
    ok(await api.call('PUT', `/meetings/${meeting.id}/report/comment`, { text: 'Lead with the 40%.' }));
    const commented = ok(await results(meeting.id, meeting.room_token)).results.coach_comment;
    assert.equal(commented.text, 'Lead with the 40%.');
  });

  test('refused while the scenario does not share, and for a wrong token', async () => {
    const scenario = await sharingScenario(false);
    const meeting = await createMeeting(api, scenario.id);
    const off = await results(meeting.id, meeting.room_token);
    assert.equal(off.statusCode, 404);
    assert.equal(off.json().error.code, 'results_not_shared');
    ok(await api.call('PUT', `/meetings/${meeting.id}/end`));
    const ended = await results(meeting.id, meeting.room_token);
    assert.equal(ended.json().error.code, 'results_not_shared', 'also after the end');

    const wrong = await results(meeting.id, 'A'.repeat(43));
    assert.equal(wrong.statusCode, 404);
    assert.equal(wrong.json().error.code, 'resource_not_found');
    const withKey = await t.app.inject({
      url: `/v1/rooms/${meeting.id}/results`,
      headers: { authorization: `Bearer ${api.key}` },
    });
    assert.equal(withKey.statusCode, 404, 'an API key does not open the room');
  });
});
