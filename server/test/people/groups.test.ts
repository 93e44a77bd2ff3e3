// Groups of people (docs/people.md): names kept tidy, listed with their size, a list filter, and
// practice assigned to a whole group at once (docs/assignments.md).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ApiClient, expectError, ok, startPlatform, type TestPlatform } from '../harness.ts';

describe('people: groups', () => {
  let t: TestPlatform;
  let coach: ApiClient;
  let scenarioId: string;
  const add = async (name: string, groups?: string[]) =>
    ok(await coach.call('POST', '/people', { name, ...(groups ? { groups } : {}) }), 201).data;

  before(async () => {
    t = await startPlatform();
    coach = await t.workspace();
    scenarioId = ok(await coach.call('GET', '/scenarios')).data[0].id;
  });
  after(() => t.close());

  it('keeps each group once, lists the groups with their size, and filters people by one', async () => {
    const sam = await add('Sam Lee', ['  Sales   EMEA ', 'sales emea', 'Q1 cohort']);
    assert.deepEqual(sam.groups, ['Sales EMEA', 'Q1 cohort']);
    await add('Kim Park', ['Sales EMEA']);
    const lone = await add('Lee Chan');
    assert.deepEqual(lone.groups, []);
    assert.deepEqual(ok(await coach.call('GET', '/people/groups')).data, [
      { name: 'Q1 cohort', people: 1 },
      { name: 'Sales EMEA', people: 2 },
    ]);
    const inSales = ok(await coach.call('GET', '/people?group=Sales%20EMEA')).data;
    assert.deepEqual(inSales.map((person: { name: string }) => person.name).sort(), ['Kim Park', 'Sam Lee']);

    // Another person's spelling is the same group, found whatever the case.
    const moved = ok(await coach.call('PATCH', `/people/${lone.id}`, { groups: ['q1  COHORT'] })).data;
    assert.deepEqual(moved.groups, ['q1 COHORT']);
    assert.deepEqual(ok(await coach.call('GET', '/people/groups')).data, [
      { name: 'Q1 cohort', people: 2 },
      { name: 'Sales EMEA', people: 2 },
    ]);
    const inCohort = ok(await coach.call('GET', '/people?group=q1%20cohort')).data;
    assert.deepEqual(inCohort.map((person: { name: string }) => person.name).sort(), ['Lee Chan', 'Sam Lee']);
    expectError(
      await coach.call('POST', '/people', { name: 'X', groups: ['a'.repeat(61)] }),
      400,
      'groups[0]',
    );
    // Another workspace's groups are its own.
    const stranger = await t.workspace();
    assert.deepEqual(ok(await stranger.call('GET', '/people/groups')).data, []);
  });

  it('assigns practice to everyone in a group, with named people, each once', async () => {
    const ana = await add('Ana Silva', ['Support']);
    const bo = await add('Bo Chen', ['Support', 'Night shift']);
    const cy = await add('Cy Diaz');
    const created = ok(
      await coach.call('POST', '/assignments', {
        scenario_id: scenarioId,
        groups: ['support', '  Night   shift '],
        person_ids: [cy.id, bo.id],
      }),
      201,
    ).data;
    assert.deepEqual(
      created.people.map((part: { person: { id: string } }) => part.person.id).sort(),
      [ana.id, bo.id, cy.id].sort(),
    );
    expectError(
      await coach.call('POST', '/assignments', {
        scenario_id: scenarioId,
        groups: ['Support', 'Nobody here'],
      }),
      400,
      'groups[1]',
    );
    expectError(await coach.call('POST', '/assignments', { scenario_id: scenarioId }), 400, 'person_ids');

    // The list's filters apply to one person's part: Cy is not overdue, so Cy has nothing overdue.
    const late = ok(
      await coach.call('POST', '/assignments', {
        scenario_id: scenarioId,
        person_ids: [ana.id],
        due_at: new Date(Date.now() - 60_000).toISOString(),
      }),
      201,
    ).data;
    const overdue = ok(await coach.call('GET', '/assignments?status=overdue')).data;
    assert.deepEqual(
      overdue.map((row: { id: string }) => row.id),
      [late.id],
    );
    const anaOverdue = ok(await coach.call('GET', `/assignments?status=overdue&person_id=${ana.id}`)).data;
    assert.equal(anaOverdue.length, 1);
    assert.deepEqual(ok(await coach.call('GET', `/assignments?status=overdue&person_id=${cy.id}`)).data, []);
    assert.equal(ok(await coach.call('GET', `/assignments?person_id=${cy.id}`)).data.length, 1);
    expectError(
      await coach.call('POST', '/assignments', { scenario_id: scenarioId, person_ids: [], groups: [] }),
      400,
      'person_ids',
    );
  });
});
