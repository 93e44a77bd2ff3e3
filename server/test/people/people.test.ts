// Participants are people (docs/people.md): one identity per person in a workspace, found again by
// external id, e-mail or name when a meeting is created, and their practice over time.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { STRONG_INTERVIEW, WEAK_INTERVIEW } from '../../src/platform/analyses/engine/test-fixtures.ts';
import {
  analysisRunner,
  createScenario,
  insertEndedMeeting,
  type ScenarioSetup,
  startAnalysisPlatform,
} from '../analyses/helpers.ts';
import { type ApiClient, expectError, ok, type TestPlatform } from '../harness.ts';

describe('people', () => {
  let t: TestPlatform;
  let ws: ApiClient;
  let setup: ScenarioSetup;
  const meeting = async (body: Record<string, unknown>) =>
    ok(await ws.call('POST', '/meetings', { scenario_id: setup.scenarioId, ...body }), 201).data.id as string;
  const meetingRead = async (id: string) => ok(await ws.call('GET', `/meetings/${id}`)).data;

  before(async () => {
    t = await startAnalysisPlatform();
    ws = await t.workspace();
    setup = await createScenario(ws);
  });
  after(() => t.close());

  it('adds, finds, changes and deletes people; e-mail and external id are each unique', async () => {
    const sam = ok(
      await ws.call('POST', '/people', { name: 'Sam Lee', email: 'Sam@Example.com', external_id: 'emp-1' }),
      201,
    ).data;
    assert.equal(sam.email, 'sam@example.com');
    assert.equal(sam.meeting_count, 0);
    expectError(await ws.call('POST', '/people', { name: 'Other', email: 'SAM@example.com' }), 409, 'email');
    expectError(
      await ws.call('POST', '/people', { name: 'Other', external_id: 'emp-1' }),
      409,
      'external_id',
    );
    expectError(await ws.call('POST', '/people', { name: '' }), 400, 'name');
    const found = ok(await ws.call('GET', '/people?q=sam')).data;
    assert.deepEqual(
      found.map((person: { id: string }) => person.id),
      [sam.id],
    );
    assert.equal(ok(await ws.call('GET', '/people?external_id=emp-1')).data[0].id, sam.id);
    const renamed = ok(await ws.call('PATCH', `/people/${sam.id}`, { name: 'Sam Lee-Park' })).data;
    assert.equal(renamed.name, 'Sam Lee-Park');
    expectError(await ws.call('GET', '/people/not-an-id'), 404, 'person_id');
    const stranger = await t.workspace();
    expectError(await stranger.call('GET', `/people/${sam.id}`), 404, 'person_id');
    ok(await ws.call('DELETE', `/people/${sam.id}`));
    expectError(await ws.call('GET', `/people/${sam.id}`), 404, 'person_id');
  });

  it('links each meeting to its person: by id, external id, e-mail, or a name known alone', async () => {
    const byEmail = await meeting({
      meeting_type: 'end-user',
      person_name: 'Ana Ruiz',
      person_email: 'ana@example.com',
    });
    const again = await meeting({ meeting_type: 'end-user', person_email: 'ANA@example.com' });
    const ana = (await meetingRead(byEmail)).person_id;
    assert.ok(ana);
    assert.equal((await meetingRead(again)).person_id, ana, 'the same address is the same person');
    assert.equal(
      (await meetingRead(again)).person_name,
      'Ana Ruiz',
      'the person’s name fills in a missing person_name',
    );

    const byExternal = await meeting({
      meeting_type: 'end-user',
      person_name: 'Kim',
      person_external_id: 'lms-77',
    });
    const kim = (await meetingRead(byExternal)).person_id;
    assert.equal(
      (await meetingRead(await meeting({ meeting_type: 'end-user', person_external_id: 'lms-77' })))
        .person_id,
      kim,
    );
    assert.equal(
      (await meetingRead(await meeting({ meeting_type: 'end-user', person_id: kim }))).person_id,
      kim,
    );

    const byName = await meeting({ meeting_type: 'end-user', person_name: 'Jordan' });
    const jordan = (await meetingRead(byName)).person_id;
    assert.equal(
      (await meetingRead(await meeting({ meeting_type: 'end-user', person_name: 'jordan' }))).person_id,
      jordan,
    );

    // An external id nobody has yet is a new person, even on a regular meeting (not the member's).
    const trainee = (
      await meetingRead(await meeting({ person_name: 'Trainee', person_external_id: 'lms-new' }))
    ).person_id;
    const traineeRead = ok(await ws.call('GET', `/people/${trainee}`)).data;
    assert.equal(traineeRead.external_id, 'lms-new');
    assert.equal(traineeRead.email, null, 'the member’s address is not stamped on someone else');

    // A regular meeting is the member's own practice: their person, by their address.
    const own = await meeting({});
    const me = ok(await ws.call('GET', `/people/${(await meetingRead(own)).person_id}`)).data;
    assert.equal(me.email, ws.email.toLowerCase());

    const stranger = await t.workspace();
    const foreign = ok(await stranger.call('POST', '/people', { name: 'Not yours' }), 201).data;
    expectError(
      await ws.call('POST', '/meetings', { scenario_id: setup.scenarioId, person_id: foreign.id }),
      400,
      'person_id',
    );
    const list = ok(await ws.call('GET', `/meetings?person_id=${ana}`)).data;
    assert.deepEqual(list.map((row: { id: string }) => row.id).sort(), [byEmail, again].sort());
    const people = ok(await ws.call('GET', '/people')).data;
    assert.equal(people.find((person: { id: string }) => person.id === ana).meeting_count, 2);
  });

  it('shows a person’s practice over time: meetings, scores per goal, the feedback they received', async () => {
    const person = ok(
      await ws.call('POST', '/people', { name: 'Priya Raman', email: 'priya@example.com' }),
      201,
    ).data;
    const first = await insertEndedMeeting(t, ws.accountId, setup.scenarioId, WEAK_INTERVIEW);
    t.clock.advance(24 * 60 * 60 * 1000);
    const second = await insertEndedMeeting(t, ws.accountId, setup.scenarioId, STRONG_INTERVIEW);
    await t.deps.db
      .updateTable('meetings')
      .set({ person_id: person.id })
      .where('id', 'in', [first.meetingId, second.meetingId])
      .execute();
    await analysisRunner(t).drain();

    const progress = ok(await ws.call('GET', `/people/${person.id}/progress`)).data;
    assert.equal(progress.person.id, person.id);
    assert.deepEqual(
      progress.meetings.map((row: { id: string }) => row.id),
      [first.meetingId, second.meetingId],
      'oldest first',
    );
    assert.equal(progress.goals.length, setup.goalIds.length);
    for (const series of progress.goals) {
      assert.equal(series.points.length, 2, series.name);
      assert.ok(
        series.points.every((point: { score: number; score_max: number }) => point.score <= point.score_max),
      );
    }
    const [weak, strong] = progress.meetings;
    assert.ok(strong.average_score > weak.average_score, 'the strong interview scored higher');
    assert.ok(weak.goal_results.every((result: { feedback: string }) => result.feedback.length > 0));
    const stranger = await t.workspace();
    expectError(await stranger.call('GET', `/people/${person.id}/progress`), 404, 'person_id');
  });
});
