// Open practice links and assignment e-mails (docs/assignments.md): a public scenario's reusable
// link asks who practises and starts a meeting per visit, rate limited; an assignment e-mails each
// person with an address their own link when SMTP_URL is set.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPlatformJobRunner } from '../../src/app/jobs.ts';
import { createAuthoring } from '../fixtures/objects.ts';
import {
  type ApiClient,
  bearer,
  expectError,
  OWN_COUNTERS,
  ok,
  startPlatform,
  type TestPlatform,
} from '../harness.ts';
import { startRelay } from '../smtp-relay.ts';

const tokenOf = (url: string) => url.split('/').pop()!;

describe('open practice links', () => {
  let t: TestPlatform;
  let coach: ApiClient;
  let scenarioId: string;
  const visit = (token: string, body?: unknown, remoteAddress = '127.0.0.1') =>
    t.app.inject(
      body === undefined
        ? { method: 'GET', url: `/v1/try/${token}`, remoteAddress }
        : { method: 'POST', url: `/v1/try/${token}/meetings`, payload: body as object, remoteAddress },
    );
  const personOf = async (meetingId: string) =>
    ok(await coach.call('GET', `/meetings/${meetingId}`)).data.person_id as string;

  before(async () => {
    // Counted in memory: on a shared Redis, 127.0.0.1's budget holds other runs' starts too.
    t = await startPlatform({ env: { OPEN_PRACTICE_PER_HOUR: '12', ...OWN_COUNTERS } });
    coach = await t.workspace();
    scenarioId = ok(await coach.call('GET', '/scenarios')).data[0].id;
  });
  after(() => t.close());

  it('opens a public scenario to anyone: each visit is a meeting, for the person the visitor says they are', async () => {
    assert.equal(ok(await coach.call('GET', `/scenarios/${scenarioId}/practice-link`)).data, null);
    const link = ok(await coach.call('POST', `/scenarios/${scenarioId}/practice-link`), 201).data;
    assert.match(link.url, /\/#\/try\/[\w-]{40,}$/);
    assert.deepEqual(ok(await coach.call('GET', `/scenarios/${scenarioId}/practice-link`)).data, link);
    const token = tokenOf(link.url);

    const preview = ok(await visit(token));
    const scenario = ok(await coach.call('GET', `/scenarios/${scenarioId}`));
    assert.equal(preview.scenario.name, scenario.name);
    assert.equal(typeof preview.persona?.name, 'string');

    // A name alone is a new person each time: two visitors called Ana are not one history.
    const first = ok(await visit(token, { name: '  Ana Silva ' }), 201);
    assert.match(first.room_url, /\/room\/[0-9a-f-]{36}\?t=/);
    const meeting = ok(await coach.call('GET', `/meetings/${first.meeting_id}`)).data;
    assert.equal(meeting.person_name, 'Ana Silva');
    assert.equal(meeting.meeting_type, 'end-user');
    const second = ok(await visit(token, { name: 'Ana Silva' }), 201);
    assert.notEqual(await personOf(second.meeting_id), await personOf(first.meeting_id));

    // With an e-mail, the visits join that person.
    const withEmail = ok(await visit(token, { name: 'Kim Park', email: 'Kim@Example.com' }), 201);
    const again = ok(await visit(token, { name: 'Kim', email: 'kim@example.com' }), 201);
    const kim = await personOf(withEmail.meeting_id);
    assert.equal(await personOf(again.meeting_id), kim);
    // The typed address stays on the meetings; it is not the person's e-mail (nothing proves it).
    assert.equal(ok(await coach.call('GET', `/people/${kim}`)).data.email, null);
    const kimMeeting = ok(await coach.call('GET', `/meetings/${again.meeting_id}`)).data;
    assert.equal(kimMeeting.participants[0].email, 'kim@example.com');
    // Nor does it take the address from whoever owns it: the team adds Kim with it later.
    const realKim = ok(
      await coach.call('POST', '/people', { name: 'Kim Park', email: 'kim@example.com' }),
      201,
    ).data;
    assert.notEqual(realKim.id, kim);

    // An address typed into a public form never joins the history of someone the team made.
    const dana = ok(
      await coach.call('POST', '/people', { name: 'Dana Reyes', email: 'dana@example.com' }),
      201,
    ).data;
    const posing = ok(await visit(token, { name: 'Not Dana', email: 'dana@example.com' }), 201);
    const posingMeeting = ok(await coach.call('GET', `/meetings/${posing.meeting_id}`)).data;
    assert.notEqual(posingMeeting.person_id, dana.id);
    assert.equal(posingMeeting.participants[0].email, 'dana@example.com', 'the address stays on the meeting');
    assert.equal(ok(await coach.call('GET', `/people/${dana.id}/progress`)).data.meetings.length, 0);

    expectError(await visit(token, { name: '   ' }), 400, 'name');
    expectError(await visit(token, { name: 'Lee', email: 'not an address' }), 400, 'email');
    expectError(await visit(token, {}), 400, 'name');
    expectError(await visit('not-a-token'), 404, 'token');

    // Another workspace neither reads nor makes this scenario's link; a viewer reads, a coach makes.
    const stranger = await t.workspace();
    expectError(await stranger.call('POST', `/scenarios/${scenarioId}/practice-link`), 404, 'scenario_id');
    const viewer = await t.member(coach, 'viewer');
    const seen = await t.app.inject({
      method: 'GET',
      url: `/v1/scenarios/${scenarioId}/practice-link`,
      headers: bearer(viewer.token),
    });
    assert.equal(ok(seen).data.url, null, 'a viewer sees that there is a link, not the link');
    const refused = await t.app.inject({
      method: 'POST',
      url: `/v1/scenarios/${scenarioId}/practice-link`,
      headers: bearer(viewer.token),
    });
    expectError(refused, 403, 'role');
    const member = await t.member(coach, 'coach');
    const byCoach = await t.app.inject({
      method: 'POST',
      url: `/v1/scenarios/${scenarioId}/practice-link`,
      headers: bearer(member.token),
    });
    assert.equal(byCoach.statusCode, 201, byCoach.body);
  });

  it('replaces, closes, and follows the scenario: restricted or deleted, the link stops', async () => {
    // The seeded scenarios are read-only: this one is the workspace's own.
    const { scenarioId } = await createAuthoring(coach);
    const made = ok(await coach.call('POST', `/scenarios/${scenarioId}/practice-link`), 201).data;
    const replaced = ok(await coach.call('POST', `/scenarios/${scenarioId}/practice-link`), 201).data;
    assert.notEqual(replaced.url, made.url);
    expectError(await visit(tokenOf(made.url)), 404, 'token');
    ok(await visit(tokenOf(replaced.url)));

    ok(await coach.call('PUT', `/scenarios/${scenarioId}`, { visibility: 'restricted' }));
    expectError(await visit(tokenOf(replaced.url)), 404, 'token');
    expectError(await coach.call('POST', `/scenarios/${scenarioId}/practice-link`), 409, 'visibility');
    ok(await coach.call('PUT', `/scenarios/${scenarioId}`, { visibility: 'public' }));
    ok(await visit(tokenOf(replaced.url)));

    ok(await coach.call('DELETE', `/scenarios/${scenarioId}/practice-link`));
    expectError(await visit(tokenOf(replaced.url)), 404, 'token');
    expectError(await coach.call('DELETE', `/scenarios/${scenarioId}/practice-link`), 404, 'scenario_id');
    const last = ok(await coach.call('POST', `/scenarios/${scenarioId}/practice-link`), 201).data;
    ok(await coach.call('DELETE', `/scenarios/${scenarioId}`));
    expectError(await visit(tokenOf(last.url)), 404, 'token');
    expectError(await coach.call('GET', `/scenarios/${scenarioId}/practice-link`), 404, 'scenario_id');
  });

  it('limits the meetings one address starts an hour', async () => {
    const scenario = ok(await coach.call('GET', '/scenarios')).data[1].id;
    const token = tokenOf(ok(await coach.call('POST', `/scenarios/${scenario}/practice-link`), 201).data.url);
    // Each start spends one of the address's 12 an hour, whatever the link; another address has its own.
    for (let visitor = 0; visitor < 12; visitor += 1) {
      ok(await visit(token, { name: `Visitor ${visitor}` }, '127.0.0.7'), 201);
    }
    const refused = await visit(token, { name: 'One too many' }, '127.0.0.7');
    expectError(refused, 429, null);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    ok(await visit(token, undefined, '127.0.0.7'));
    ok(await visit(token, { name: 'Elsewhere' }, '127.0.0.8'), 201);
  });
});

describe('open practice links: the per-link budget', () => {
  let t: TestPlatform;
  before(async () => {
    t = await startPlatform({ env: { OPEN_PRACTICE_PER_HOUR: '1', ...OWN_COUNTERS } });
  });
  after(() => t.close());

  it('limits the meetings one link starts an hour, from however many addresses', async () => {
    const coach = await t.workspace();
    const scenario = ok(await coach.call('GET', '/scenarios')).data[0].id;
    const token = tokenOf(ok(await coach.call('POST', `/scenarios/${scenario}/practice-link`), 201).data.url);
    const start = (address: string) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/try/${token}/meetings`,
        payload: { name: `Visitor ${address}` },
        remoteAddress: address,
      });
    // Ten times the address budget per link: ten addresses start one each, the eleventh is refused.
    for (let n = 1; n <= 10; n += 1) ok(await start(`127.0.1.${n}`), 201);
    expectError(await start('127.0.1.11'), 429, null);
  });
});

describe('assignment e-mails through SMTP_URL', () => {
  let t: TestPlatform;
  let relay: Awaited<ReturnType<typeof startRelay>>;

  before(async () => {
    relay = await startRelay();
    t = await startPlatform({ env: { SMTP_URL: `smtp://127.0.0.1:${relay.port}?from=coach@example.com` } });
  });
  after(async () => {
    await t.close();
    await relay.close();
  });

  it('sends each person with an address their own link, once', async () => {
    const coach = await t.workspace();
    const scenario = ok(await coach.call('GET', '/scenarios')).data[0];
    const sam = ok(
      await coach.call('POST', '/people', { name: 'Sam Lee', email: 'sam@example.com' }),
      201,
    ).data;
    const kim = ok(await coach.call('POST', '/people', { name: 'Kim Park' }), 201).data;
    const created = ok(
      await coach.call('POST', '/assignments', {
        scenario_id: scenario.id,
        person_ids: [sam.id, kim.id],
        due_at: '2030-01-15T17:00:00Z',
        max_attempts: 2,
        note: 'Focus on the discovery questions.',
      }),
      201,
    ).data;
    assert.ok(created.people.every((row: { emailed_at: unknown }) => row.emailed_at === null));
    await createPlatformJobRunner(t.deps).drain();
    assert.equal(relay.received.length, 1, 'Kim has no address');
    const mail = relay.received[0]!;
    assert.deepEqual(mail.to, ['sam@example.com']);
    assert.ok(mail.subject.includes(scenario.name));
    const samPart = created.people.find((row: { person: { id: string } }) => row.person.id === sam.id);
    assert.ok(mail.text.includes(samPart.practice_url), 'the mail carries Sam’s own link');
    assert.match(mail.text, /2 attempts, due Tuesday,? 15 January 2030/);
    assert.match(mail.text, /Focus on the discovery questions\./);
    const read = ok(await coach.call('GET', `/assignments/${created.id}`)).data;
    const byName = (name: string) =>
      read.people.find((row: { person: { name: string } }) => row.person.name === name);
    assert.ok(byName('Sam Lee').emailed_at);
    assert.equal(byName('Kim Park').emailed_at, null);
    // A retried job finds emailed_at and sends nothing.
    const targetId = (
      await t.deps.db
        .selectFrom('assignment_people')
        .select('id')
        .where('person_id', '=', sam.id)
        .executeTakeFirstOrThrow()
    ).id;
    await t.deps.jobs.enqueue(t.deps.db, 'assignment.practice_email', { target_id: targetId });
    await createPlatformJobRunner(t.deps).drain();
    assert.equal(relay.received.length, 1, 'sent once');
  });
});
