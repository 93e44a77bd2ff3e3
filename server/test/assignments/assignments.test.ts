// Assigned practice (docs/assignments.md): a scenario given to people with a due date and attempts;
// each person's link starts their meetings (no sign-in), the first that ends completes their part
// with `assignment.completed`, and the statuses follow.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPlatformJobRunner } from '../../src/app/jobs.ts';
import { type ApiClient, expectError, ok, startPlatform, type TestPlatform } from '../harness.ts';

describe('assignments', () => {
  let t: TestPlatform;
  let coach: ApiClient;
  let scenarioId: string;
  const person = async (name: string) =>
    ok(await coach.call('POST', '/people', { name }), 201).data.id as string;
  const tokenOf = (url: string) => url.split('/').pop()!;
  const practice = (method: string, token: string, suffix = '') =>
    t.app.inject({ method: method as 'GET', url: `/v1/practice/${token}${suffix}` });

  before(async () => {
    t = await startPlatform();
    coach = await t.workspace();
    scenarioId = ok(await coach.call('GET', '/scenarios')).data[0].id;
  });
  after(() => t.close());

  it('assigns a scenario to people, each with a personal link; a link starts attempts up to the limit', async () => {
    const [sam, kim] = [await person('Sam Lee'), await person('Kim Park')];
    const created = ok(
      await coach.call('POST', '/assignments', {
        scenario_id: scenarioId,
        person_ids: [sam, kim],
        due_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        max_attempts: 1,
        note: 'Warm up before Friday.',
      }),
      201,
    ).data;
    assert.deepEqual(created.status_counts, { not_started: 2, in_progress: 0, done: 0, overdue: 0 });
    const samPart = created.people.find((row: { person: { id: string } }) => row.person.id === sam);
    assert.match(samPart.practice_url, /\/#\/practice\/[\w-]{40,}$/);
    const token = tokenOf(samPart.practice_url);

    const preview = ok(await practice('GET', token));
    assert.equal(preview.person.name, 'Sam Lee');
    assert.equal(preview.attempts_left, 1);
    assert.equal(preview.note, 'Warm up before Friday.');

    const started = ok(await practice('POST', token, '/meetings'), 201);
    assert.match(started.room_url, /\/room\/[0-9a-f-]{36}\?t=/);
    const meeting = ok(await coach.call('GET', `/meetings/${started.meeting_id}`)).data;
    assert.equal(meeting.person_id, sam);
    assert.equal(meeting.person_name, 'Sam Lee');
    const again = await practice('POST', token, '/meetings');
    assert.equal(again.statusCode, 409, again.body);
    assert.match(again.json().error.message, /attempts are used/);

    // The links are credentials: a viewer sees the progress, not the links.
    const viewer = await t.member(coach, 'viewer');
    const seen = await t.app.inject({
      method: 'GET',
      url: `/v1/assignments/${created.id}`,
      headers: { authorization: `Bearer ${viewer.token}` },
    });
    assert.ok(ok(seen).data.people.every((row: { practice_url: unknown }) => row.practice_url === null));
    const during = ok(await coach.call('GET', `/assignments/${created.id}`)).data;
    assert.equal(
      during.people.find((row: { person: { id: string } }) => row.person.id === sam).status,
      'in_progress',
    );

    // The meeting ends: Sam's part is done, once, with its webhook event.
    ok(await coach.call('PUT', `/meetings/${started.meeting_id}/end`));
    await createPlatformJobRunner(t.deps).drain();
    const after = ok(await coach.call('GET', `/assignments/${created.id}`)).data;
    const done = after.people.find((row: { person: { id: string } }) => row.person.id === sam);
    assert.equal(done.status, 'done');
    assert.equal(done.completed_meeting_id, started.meeting_id);
    assert.deepEqual(after.status_counts, { not_started: 1, in_progress: 0, done: 1, overdue: 0 });
    const events = ok(await coach.call('GET', '/events?type=assignment.completed')).data;
    assert.equal(events.length, 1);
    assert.equal(events[0].data.person_id, sam);
    assert.equal(events[0].data.assignment_id, created.id);

    // More attempts: the link works again.
    ok(await coach.call('PATCH', `/assignments/${created.id}`, { max_attempts: 2 }));
    ok(await practice('POST', token, '/meetings'), 201);
  });

  it('marks what is past due as overdue, refuses foreign people and scenarios, and a deleted assignment’s link', async () => {
    const lee = await person('Lee Chan');
    const late = ok(
      await coach.call('POST', '/assignments', {
        scenario_id: scenarioId,
        person_ids: [lee],
        due_at: new Date(Date.now() - 86_400_000).toISOString(),
      }),
      201,
    ).data;
    assert.equal(late.people[0].status, 'overdue');
    const stranger = await t.workspace();
    const theirs = ok(await stranger.call('POST', '/people', { name: 'Not yours' }), 201).data.id;
    expectError(
      await coach.call('POST', '/assignments', { scenario_id: scenarioId, person_ids: [lee, theirs] }),
      400,
      'person_ids[1]',
    );
    const theirScenario = ok(await stranger.call('GET', '/scenarios')).data[0].id;
    expectError(
      await coach.call('POST', '/assignments', { scenario_id: theirScenario, person_ids: [lee] }),
      400,
      'scenario_id',
    );
    expectError(
      await coach.call('POST', '/assignments', { scenario_id: scenarioId, person_ids: [] }),
      400,
      'person_ids',
    );
    expectError(await stranger.call('GET', `/assignments/${late.id}`), 404, 'assignment_id');

    const token = tokenOf(late.people[0].practice_url);
    ok(await coach.call('DELETE', `/assignments/${late.id}`));
    expectError(await practice('GET', token), 404, 'token');
    expectError(await practice('GET', 'not-a-token'), 404, 'token');
  });
});
