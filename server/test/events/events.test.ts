// GET /v1/events (the workspace's event log, newest first, always paged) and
// GET /v1/webhooks/event-types (the catalogue).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EVENT_DESCRIPTIONS, SUBSCRIBABLE_EVENT_TYPES } from '../../src/platform/events/catalog.ts';
import { createScenario } from '../analyses/helpers.ts';
import { type ApiClient, expectError, ok, startPlatform, type TestPlatform } from '../harness.ts';

let t: TestPlatform;
let ws: ApiClient;
let other: ApiClient;
const meetings: string[] = [];

before(async () => {
  t = await startPlatform();
  ws = await t.workspace();
  other = await t.workspace();
  const { scenarioId } = await createScenario(ws);
  // Three meetings, each created, then ended: six events, a second apart.
  for (let i = 0; i < 3; i += 1) {
    t.clock.advance(1000);
    meetings.push(ok(await ws.call('POST', '/meetings', { scenario_id: scenarioId }), 201).data.id);
  }
  for (const id of meetings) {
    t.clock.advance(1000);
    ok(await ws.call('PUT', `/meetings/${id}/end`), 200);
  }
  const { scenarioId: foreign } = await createScenario(other);
  ok(await other.call('POST', '/meetings', { scenario_id: foreign }), 201);
});
after(() => t.close());

describe('GET /events', () => {
  test('a meeting’s events, newest first, as their webhook envelopes carry them', async () => {
    const body = ok(await ws.call('GET', `/events?meeting_id=${meetings[0]}`), 200);
    assert.equal(body.object, 'list');
    assert.equal(body.has_more, false);
    assert.equal(body.next_cursor, null);
    const created = body.data.at(-1);
    assert.equal(created.type, 'meeting.created');
    assert.deepEqual(Object.keys(created).sort(), ['created_at', 'data', 'id', 'type']);
    assert.equal(created.data.meeting_id, meetings[0]);
    assert.ok(created.data.scenario_id);
    for (const event of body.data) assert.equal(event.data.meeting_id, meetings[0]);
    const times = body.data.map((event: { created_at: string }) => event.created_at);
    assert.deepEqual([...times].sort().reverse(), times);
  });

  test('filters by type, pages with limit and cursor, and is always paged', async () => {
    const all = ok(await ws.call('GET', '/events?type=meeting.created'), 200);
    assert.deepEqual(
      all.data.map((event: { data: { meeting_id: string } }) => event.data.meeting_id),
      [...meetings].reverse(),
    );
    const first = ok(await ws.call('GET', '/events?type=meeting.created&limit=2'), 200);
    assert.equal(first.has_more, true);
    assert.equal(first.data.length, 2);
    const rest = ok(
      await ws.call(
        'GET',
        `/events?type=meeting.created&limit=2&cursor=${encodeURIComponent(first.next_cursor)}`,
      ),
      200,
    );
    assert.deepEqual(
      [...first.data, ...rest.data].map((event: { id: string }) => event.id),
      all.data.map((event: { id: string }) => event.id),
    );
    assert.equal(rest.has_more, false);
    const both = ok(await ws.call('GET', `/events?meeting_id=${meetings[1]}&type=meeting.created`), 200);
    assert.equal(both.data.length, 1);
  });

  test('another workspace’s or an unknown meeting has no events here; bad input names the parameter', async () => {
    assert.deepEqual(ok(await other.call('GET', `/events?meeting_id=${meetings[0]}`), 200).data, []);
    assert.deepEqual(ok(await ws.call('GET', '/events?meeting_id=nope'), 200).data, []);
    const mine = ok(await other.call('GET', '/events'), 200).data;
    assert.ok(mine.length > 0);
    assert.ok(
      mine.every((event: { data: { meeting_id: string } }) => !meetings.includes(event.data.meeting_id)),
    );
    expectError(await ws.call('GET', '/events?type=meeting.started'), 400, 'type');
    expectError(await ws.call('GET', '/events?type=nope'), 400, 'type');
    expectError(await ws.call('GET', '/events?limit=101'), 400, 'limit');
    expectError(await ws.call('GET', '/events?cursor=abc'), 400, 'cursor');
    const page = ok(await ws.call('GET', '/events?limit=1'), 200);
    expectError(
      await other.call('GET', `/events?cursor=${encodeURIComponent(page.next_cursor)}`),
      400,
      'cursor',
    );
  });
});

describe('GET /webhooks/event-types', () => {
  test('lists every subscribable type with its description', async () => {
    const body = ok(await ws.call('GET', '/webhooks/event-types'), 200);
    assert.deepEqual(
      body.data.map((entry: { type: string }) => entry.type),
      [...SUBSCRIBABLE_EVENT_TYPES],
    );
    const deleted = body.data.find((entry: { type: string }) => entry.type === 'meeting.deleted');
    assert.deepEqual(deleted, {
      type: 'meeting.deleted',
      description: EVENT_DESCRIPTIONS['meeting.deleted'],
      fires: true,
    });
    const planned = body.data.find((entry: { type: string }) => entry.type === 'meeting.started');
    assert.equal(planned.fires, false);
    // Every type listed here can be subscribed to.
    const endpoint = await ws.call('POST', '/webhooks/endpoints', {
      url: 'https://example.com/hook',
      subscribed_events: body.data.map((entry: { type: string }) => entry.type),
    });
    assert.equal(endpoint.statusCode, 201, endpoint.body);
  });
});
