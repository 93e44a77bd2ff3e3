import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { FakeClock } from '../../src/core/clock.ts';
import { migrate } from '../../src/core/db/migrator.ts';
import { customAgentForScenario } from '../../src/platform/scenarios/custom-agent.ts';
import { personaBody } from '../fixtures/bodies.ts';
import { type ApiClient, expectError, ok, startPlatform } from '../harness.ts';

const t = await startPlatform();
const BEFORE_SUNSET = '2026-09-01T09:00:00.000Z';
after(() => t.close());

async function persona(a: ApiClient) {
  return ok(await a.call('POST', '/personas', personaBody()), 201);
}

async function scenario(a: ApiClient, extra: Record<string, unknown> = {}) {
  const p = await persona(a);
  return ok(
    await a.call('POST', '/scenarios', { name: 'Screen', type: 'interview', persona_id: p.id, ...extra }),
    201,
  );
}

const API_KEY = 'sk-live-Zq8f2VbN0cX7mR4tY1uPabcd';

describe('scenarios', () => {
  test('create round-trips every field and applies the defaults', async () => {
    const a = await t.workspace();
    const p = await persona(a);
    const goal = ok(await a.call('POST', '/goals', { name: 'Clarity', instructions: 'Score 1-5' }), 201);
    const body = {
      name: 'Backend screen',
      type: 'interview',
      persona_id: p.id,
      prompt: '## Questions\n1. Tell me about a system you built.\n2. How do you debug production issues?',
      description: 'A short technical screen.',
      call_duration: 20,
      welcome_message: 'Hello and welcome!',
      visibility: 'restricted',
      goals: [goal.id],
      custom_agent_enabled: false,
    };
    const created = ok(await a.call('POST', '/scenarios', body), 201);
    for (const [field, value] of Object.entries(body)) assert.deepEqual(created[field], value, field);
    assert.equal(created.default_kind, null);
    assert.equal(created.Persona.id, p.id);
    assert.equal(created.Goals[0].id, goal.id);
    assert.deepEqual(created.guardrails, []);
    assert.deepEqual(created.custom_functions, []);
    assert.equal(created.custom_agent_config, null);
    assert.deepEqual(created.meeting_controls, {
      allow_participant_end: true,
      idle_timeout_seconds: 300,
      show_timer: true,
      agent_fallback: 'auto',
      share_results_with_participant: false,
    });
    assert.deepEqual(created.session_options, {
      webhook_url: null,
      recording_enabled: true,
      recording_consent_required: false,
      memory_enabled: false,
      notification_emails: [],
      language: 'en',
    });
    assert.deepEqual(ok(await a.call('GET', `/scenarios/${created.id}`)), created);

    const minimal = ok(
      await a.call('POST', '/scenarios', { name: 'Min', type: 'brainstorm', persona_id: p.id }),
      201,
    );
    assert.equal(minimal.call_duration, 30);
    assert.equal(minimal.visibility, 'public');
    assert.equal(minimal.custom_agent_enabled, false);
    assert.equal(minimal.prompt, '');
    assert.deepEqual(minimal.goals, []);
  });

  test('welcome_message is generated from the persona and script when omitted, and follows script changes', async () => {
    const a = await t.workspace();
    const s = await scenario(a, {
      prompt: '## Questions\n1. What brings you here?\n2. What is your biggest win?',
    });
    assert.match(s.welcome_message, /Dana Whitfield/);
    assert.match(s.welcome_message, /two questions/);
    const updated = ok(
      await a.call('PUT', `/scenarios/${s.id}`, {
        prompt: '## Questions\n1. One?\n2. Two?\n3. Three?',
      }),
    );
    assert.match(updated.welcome_message, /three questions/);
    const custom = ok(await a.call('PUT', `/scenarios/${s.id}`, { welcome_message: 'Custom hello.' }));
    assert.equal(custom.welcome_message, 'Custom hello.');
    const kept = ok(await a.call('PUT', `/scenarios/${s.id}`, { prompt: '1. Only one?' }));
    assert.equal(kept.welcome_message, 'Custom hello.');
    const regenerated = ok(await a.call('PUT', `/scenarios/${s.id}`, { welcome_message: null }));
    assert.match(regenerated.welcome_message, /Dana Whitfield/);
  });

  test('limits and enums are enforced at their boundaries', async () => {
    const a = await t.workspace();
    const p = await persona(a);
    const base = { name: 'S', type: 'roleplay', persona_id: p.id };
    for (const type of ['interview', 'roleplay', 'upskill', 'brainstorm']) {
      ok(await a.call('POST', '/scenarios', { ...base, type }), 201);
    }
    expectError(await a.call('POST', '/scenarios', { ...base, type: 'webinar' }), 400, 'type');
    expectError(await a.call('POST', '/scenarios', { ...base, type: undefined }), 400, 'type');
    expectError(await a.call('POST', '/scenarios', { name: 'S', type: 'roleplay' }), 400, 'persona_id');
    expectError(await a.call('POST', '/scenarios', { ...base, persona_id: randomUUID() }), 400, 'persona_id');
    ok(await a.call('POST', '/scenarios', { ...base, call_duration: 1 }), 201);
    ok(await a.call('POST', '/scenarios', { ...base, call_duration: 240 }), 201);
    expectError(await a.call('POST', '/scenarios', { ...base, call_duration: 0 }), 400, 'call_duration');
    expectError(await a.call('POST', '/scenarios', { ...base, call_duration: 241 }), 400, 'call_duration');
    expectError(await a.call('POST', '/scenarios', { ...base, visibility: 'secret' }), 400, 'visibility');
    expectError(await a.call('POST', '/scenarios', { ...base, name: 'x'.repeat(201) }), 400, 'name');
    ok(await a.call('POST', '/scenarios', { ...base, name: 'x'.repeat(200) }), 201);
    expectError(await a.call('POST', '/scenarios', { ...base, name: '   ' }), 400, 'name');
    for (const [field, max] of [
      ['prompt', 50_000],
      ['description', 2000],
      ['welcome_message', 2000],
    ] as const) {
      ok(await a.call('POST', '/scenarios', { ...base, [field]: 'w'.repeat(max) }), 201);
      expectError(await a.call('POST', '/scenarios', { ...base, [field]: 'w'.repeat(max + 1) }), 400, field);
    }
    expectError(await a.call('POST', '/scenarios', { ...base, goals: [randomUUID()] }), 400, 'goals[0]');
    expectError(
      await a.call('POST', '/scenarios', { ...base, default_kind: 'plus_one' }),
      400,
      'default_kind',
    );
    expectError(
      await a.call('POST', '/scenarios', { ...base, membership_id: randomUUID() }),
      400,
      'membership_id',
    );
    const s = await scenario(a);
    expectError(await a.call('PUT', `/scenarios/${s.id}`, { default_kind: null }), 400, 'default_kind');
    expectError(
      await a.call('PUT', `/scenarios/${s.id}`, { meeting_controls: { idle_timeout_seconds: 29 } }),
      400,
      'meeting_controls.idle_timeout_seconds',
    );
    const emails = Array.from({ length: 10 }, (_, i) => `coach${i}@example.com`);
    ok(await a.call('PUT', `/scenarios/${s.id}`, { session_options: { notification_emails: emails } }));
    expectError(
      await a.call('PUT', `/scenarios/${s.id}`, {
        session_options: { notification_emails: [...emails, 'x@example.com'] },
      }),
      400,
      'session_options.notification_emails',
    );
    expectError(
      await a.call('PUT', `/scenarios/${s.id}`, {
        session_options: { notification_emails: ['not-an-email'] },
      }),
      400,
      'session_options.notification_emails[0]',
    );
  });

  test('PUT is partial: goals replace, nested objects merge', async () => {
    const a = await t.workspace();
    const g1 = ok(await a.call('POST', '/goals', { name: 'One' }), 201);
    const g2 = ok(await a.call('POST', '/goals', { name: 'Two' }), 201);
    const s = await scenario(a, { goals: [g1.id], description: 'kept' });
    const updated = ok(
      await a.call('PUT', `/scenarios/${s.id}`, {
        goals: [g2.id, g1.id],
        meeting_controls: { show_timer: false },
        session_options: { memory_enabled: true, language: 'de', recording_consent_required: true },
        visibility: 'restricted',
      }),
    );
    assert.deepEqual(updated.goals, [g2.id, g1.id]);
    assert.equal(updated.description, 'kept');
    assert.equal(updated.visibility, 'restricted');
    assert.deepEqual(updated.meeting_controls, {
      allow_participant_end: true,
      idle_timeout_seconds: 300,
      show_timer: false,
      agent_fallback: 'auto',
      share_results_with_participant: false,
    });
    assert.equal(updated.session_options.memory_enabled, true);
    assert.equal(updated.session_options.recording_consent_required, true);
    assert.equal(updated.session_options.recording_enabled, true);
    assert.equal(updated.session_options.language, 'de');
    const cleared = ok(await a.call('PUT', `/scenarios/${s.id}`, { goals: [] }));
    assert.deepEqual(cleared.goals, []);
    // The goals themselves still exist.
    ok(await a.call('GET', `/goals/${g1.id}`));
  });

  test('custom agent configuration: HTTPS, masked key, defaults, limits and refused headers', async () => {
    const a = await t.workspace();
    const s = await scenario(a, {
      custom_agent_enabled: true,
      custom_agent_config: { base_url: 'https://agent.example.com/v1/', api_key: API_KEY },
    });
    assert.deepEqual(s.custom_agent_config, {
      base_url: 'https://agent.example.com/v1',
      api_key: '****abcd',
      model: 'waterr-agent',
      timeout_s: 10,
      extra_headers: {},
    });
    const read = ok(await a.call('GET', `/scenarios/${s.id}`));
    assert.equal(read.custom_agent_config.api_key, '****abcd');
    assert.ok(!JSON.stringify(ok(await a.call('GET', '/scenarios'))).includes(API_KEY));

    const updated = ok(
      await a.call('PUT', `/scenarios/${s.id}`, {
        custom_agent_config: { model: 'my-agent', timeout_s: 30, extra_headers: { 'X-Tenant': 'acme' } },
      }),
    );
    assert.deepEqual(updated.custom_agent_config, {
      base_url: 'https://agent.example.com/v1',
      api_key: '****abcd',
      model: 'my-agent',
      timeout_s: 30,
      extra_headers: { 'X-Tenant': '****' },
    });
    // Sending the masked key back keeps the real one; the live engine gets it in clear.
    ok(await a.call('PUT', `/scenarios/${s.id}`, { custom_agent_config: { api_key: '****abcd' } }));
    const runtime = await customAgentForScenario(t.deps.db, t.deps.secretBox, a.accountId, s.id);
    assert.equal(runtime?.api_key, API_KEY);
    assert.equal(runtime?.model, 'my-agent');
    assert.deepEqual(runtime?.extra_headers, { 'X-Tenant': 'acme' });

    const param = (field: string) => `custom_agent_config.${field}`;
    const put = (config: Record<string, unknown>) =>
      a.call('PUT', `/scenarios/${s.id}`, { custom_agent_config: config });
    expectError(await put({ timeout_s: 31 }), 400, param('timeout_s'));
    expectError(await put({ timeout_s: 0 }), 400, param('timeout_s'));
    expectError(await put({ base_url: 'http://agent.example.com/v1' }), 400, param('base_url'));
    expectError(await put({ base_url: 'ftp://agent.example.com' }), 400, param('base_url'));
    expectError(await put({ base_url: 'not a url' }), 400, param('base_url'));
    expectError(await put({ base_url: 'https://user:pw@agent.example.com' }), 400, param('base_url'));
    for (const header of ['Host', 'authorization', 'AUTHORIZATION', 'X-Internal-Foo', 'x-internal-trace']) {
      expectError(await put({ extra_headers: { [header]: 'v' } }), 400, param(`extra_headers.${header}`));
    }
    expectError(await put({ extra_headers: { 'Bad Header': 'v' } }), 400, param('extra_headers.Bad Header'));
    expectError(await put({ unknown: 1 }), 400, param('unknown'));
    expectError(await put({ model: '   ' }), 400, param('model'));
    expectError(await put({ model: 'm'.repeat(201) }), 400, param('model'));

    // Enabling needs a base_url.
    const bare = await scenario(a);
    expectError(
      await a.call('PUT', `/scenarios/${bare.id}`, { custom_agent_enabled: true }),
      400,
      param('base_url'),
    );
    expectError(
      await a.call('PUT', `/scenarios/${bare.id}`, { custom_agent_config: { api_key: 'k'.repeat(20) } }),
      400,
      param('base_url'),
    );
    const p = await persona(a);
    expectError(
      await a.call('POST', '/scenarios', {
        name: 'x',
        type: 'roleplay',
        persona_id: p.id,
        custom_agent_enabled: true,
      }),
      400,
      param('base_url'),
    );
    // A loopback test agent over plain http is accepted only because OUTBOUND_ALLOW_CIDRS allows it.
    ok(
      await a.call('PUT', `/scenarios/${bare.id}`, {
        custom_agent_config: { base_url: 'http://127.0.0.1:9/v1' },
      }),
    );
    // Removing the key and the whole configuration.
    assert.equal(ok(await put({ api_key: null })).custom_agent_config.api_key, null);
    const off = ok(
      await a.call('PUT', `/scenarios/${s.id}`, { custom_agent_enabled: false, custom_agent_config: null }),
    );
    assert.equal(off.custom_agent_config, null);
    assert.equal(off.custom_agent_enabled, false);
  });

  test('no table of the authoring area holds the custom agent API key in clear', async () => {
    const a = await t.workspace();
    const secret = `sk-dump-${randomUUID()}`;
    const s = await scenario(a, {
      custom_agent_enabled: true,
      custom_agent_config: { base_url: 'https://agent.example.com', api_key: secret },
    });
    ok(await a.call('PUT', `/scenarios/${s.id}`, { custom_agent_config: { api_key: `${secret}-2` } }));
    for (const table of ['scenarios', 'personas', 'goals', 'scenario_goals', 'idempotency_keys']) {
      const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(
        t.deps.db,
      );
      assert.ok(!JSON.stringify(rows).includes(secret), `${table} holds the key in clear`);
    }
  });

  test('extra header values are sealed at rest, masked on read and in clear for the live engine', async () => {
    const a = await t.workspace();
    const token = `tok-${randomUUID()}`;
    const s = await scenario(a, {
      custom_agent_enabled: true,
      custom_agent_config: {
        base_url: 'https://agent.example.com',
        extra_headers: { 'X-Tenant-Token': token, 'X-Region': 'eu' },
      },
    });
    const masked = { 'X-Tenant-Token': `****${token.slice(-4)}`, 'X-Region': '****' };
    assert.deepEqual(s.custom_agent_config.extra_headers, masked);
    assert.deepEqual(ok(await a.call('GET', `/scenarios/${s.id}`)).custom_agent_config.extra_headers, masked);
    assert.ok(!JSON.stringify(ok(await a.call('GET', '/scenarios'))).includes(token));
    const { rows } = await sql<Record<string, unknown>>`select * from scenarios where id = ${s.id}`.execute(
      t.deps.db,
    );
    assert.ok(!JSON.stringify(rows).includes(token), 'the header value is stored in clear');
    assert.deepEqual(Object.keys(rows[0]!.custom_agent_extra_headers as object).sort(), [
      'X-Region',
      'X-Tenant-Token',
    ]);

    // A read-modify-write sends the masks back: the stored values are kept; a new value replaces one.
    ok(
      await a.call('PUT', `/scenarios/${s.id}`, {
        custom_agent_config: { extra_headers: { ...masked, 'X-Region': 'us' } },
      }),
    );
    const runtime = await customAgentForScenario(t.deps.db, t.deps.secretBox, a.accountId, s.id);
    assert.deepEqual(runtime?.extra_headers, { 'X-Tenant-Token': token, 'X-Region': 'us' });
    const exported = ok(await a.call('GET', `/scenarios/${s.id}/export`));
    assert.deepEqual(exported.scenario.custom_agent_config.extra_headers, runtime?.extra_headers);
  });

  test('migration 0063 seals extra header values stored in clear before it', async () => {
    const a = await t.workspace();
    const s = await scenario(a, {
      custom_agent_enabled: true,
      custom_agent_config: { base_url: 'https://agent.example.com', extra_headers: { 'X-Old': 'x' } },
    });
    const clear = { 'X-Old': 'legacy-credential-1234' };
    await sql`update scenarios set custom_agent_extra_headers = ${JSON.stringify(clear)}::jsonb where id = ${s.id}`.execute(
      t.deps.db,
    );
    await sql`delete from schema_migrations where version = 63`.execute(t.deps.db);
    const applied = await migrate(t.deps.database, [], { secretBox: t.deps.secretBox });
    assert.deepEqual(applied, ['0063_seal_custom_agent_headers']);
    const { rows } = await sql<{ h: Record<string, string> }>`
      select custom_agent_extra_headers as h from scenarios where id = ${s.id}`.execute(t.deps.db);
    assert.notEqual(rows[0]!.h['X-Old'], clear['X-Old']);
    const runtime = await customAgentForScenario(t.deps.db, t.deps.secretBox, a.accountId, s.id);
    assert.deepEqual(runtime?.extra_headers, clear);
    assert.deepEqual(ok(await a.call('GET', `/scenarios/${s.id}`)).custom_agent_config.extra_headers, {
      'X-Old': '****1234',
    });
    assert.deepEqual(await migrate(t.deps.database, [], { secretBox: t.deps.secretBox }), []);
  });

  test('session options: legacy webhook secret once, deprecation headers, HTTPS in production', async () => {
    // Before the legacy webhook's sunset; after it a webhook_url is refused (legacy-webhook.test.ts).
    const now = t.clock.now();
    t.clock.set(BEFORE_SUNSET);
    const a = await t.workspace();
    const s = await scenario(a);
    const first = await a.call('PUT', `/scenarios/${s.id}/session-options`, {
      webhook_url: 'https://hooks.example.com/understudy',
      recording_enabled: false,
      notification_emails: ['Coach@Example.com'],
    });
    const body = ok(first);
    assert.equal(first.headers.deprecation, '@1788652800', 'RFC 9745: deprecated since 2026-09-06');
    assert.equal(first.headers.sunset, t.deps.config.legacyWebhookSunset.toUTCString());
    assert.equal(first.headers.sunset, 'Fri, 25 Sep 2026 00:00:00 GMT');
    assert.match(body.webhook_secret, /^whsec_[A-Za-z0-9_-]{20,}$/);
    assert.equal(body.webhook_url, 'https://hooks.example.com/understudy');
    assert.equal(body.recording_enabled, false);
    assert.deepEqual(body.notification_emails, ['coach@example.com']);

    const second = ok(
      await a.call('PUT', `/scenarios/${s.id}/session-options`, {
        webhook_url: 'https://hooks.example.com/v2',
      }),
    );
    assert.equal(second.webhook_secret, undefined);
    const read = ok(await a.call('GET', `/scenarios/${s.id}`));
    assert.equal(read.session_options.webhook_url, 'https://hooks.example.com/v2');
    assert.ok(!JSON.stringify(read).includes(body.webhook_secret));
    const row = await t.deps.db
      .selectFrom('scenarios')
      .select(['legacy_webhook_url', 'legacy_webhook_secret'])
      .where('id', '=', s.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.legacy_webhook_url, 'https://hooks.example.com/v2');
    assert.notEqual(row.legacy_webhook_secret, body.webhook_secret);
    assert.equal(t.deps.secretBox.open(row.legacy_webhook_secret!), body.webhook_secret);

    const removed = ok(await a.call('PUT', `/scenarios/${s.id}/session-options`, { webhook_url: null }));
    assert.equal(removed.webhook_url, null);
    const again = ok(
      await a.call('PUT', `/scenarios/${s.id}/session-options`, {
        webhook_url: 'https://hooks.example.com/3',
      }),
    );
    assert.match(again.webhook_secret, /^whsec_/);
    assert.notEqual(again.webhook_secret, body.webhook_secret);

    expectError(
      await a.call('PUT', `/scenarios/${s.id}/session-options`, { webhook_url: 'nope' }),
      400,
      'webhook_url',
    );
    expectError(
      await a.call('PUT', `/scenarios/${s.id}/session-options`, { language: 'english!' }),
      400,
      'language',
    );
    expectError(
      await a.call('PUT', `/scenarios/${randomUUID()}/session-options`, { language: 'en' }),
      404,
      'id',
    );

    const production = await startPlatform({
      clock: new FakeClock(BEFORE_SUNSET),
      env: { APP_ENV: 'production', PUBLIC_URL: 'https://api.example.com', SIGNUP_ENABLED: 'true' },
    });
    try {
      const p = await production.workspace();
      const ps = await scenario(p);
      expectError(
        await p.call('PUT', `/scenarios/${ps.id}/session-options`, {
          webhook_url: 'http://hooks.example.com/x',
        }),
        400,
        'webhook_url',
      );
      expectError(
        await p.call('PUT', `/scenarios/${ps.id}`, {
          custom_agent_config: { base_url: 'http://127.0.0.1:9/v1' },
        }),
        400,
        'custom_agent_config.base_url',
      );
    } finally {
      await production.close();
      t.clock.set(now);
    }
  });

  test('list: { data } with default_kind, summaries without prompts, opt-in pagination', async () => {
    const a = await t.workspace();
    const list = ok(await a.call('GET', '/scenarios'));
    assert.deepEqual(Object.keys(list), ['data']);
    assert.deepEqual(list.data.map((s: { default_kind: string }) => s.default_kind).sort(), [
      'plus_one',
      'requirement_gathering',
    ]);
    for (let i = 0; i < 3; i += 1) {
      t.clock.advance(1000);
      await scenario(a, { name: `N${i}` });
    }
    const all = ok(await a.call('GET', '/scenarios')).data;
    assert.equal(all.length, 5);
    assert.equal(all[0].name, 'N2');
    assert.equal(all[0].default_kind, null);
    assert.equal(all[0].prompt, undefined);
    assert.equal(all[0].Persona.name, 'Dana Whitfield');
    const page = ok(await a.call('GET', '/scenarios?limit=2'));
    assert.equal(page.object, 'list');
    assert.equal(page.has_more, true);
    const next = ok(await a.call('GET', `/scenarios?limit=2&starting_after=${page.next_cursor}`));
    assert.equal(next.data[0].id, all[2].id);
    expectError(await a.call('GET', '/scenarios?limit=101'), 400, 'limit');
    const b = await t.workspace();
    expectError(await b.call('GET', `/scenarios?cursor=${page.next_cursor}`), 400, 'cursor');
  });

  test('every account is seeded with complete plus_one and requirement_gathering scenarios', async () => {
    const a = await t.workspace();
    const { data } = ok(await a.call('GET', '/scenarios'));
    const personaIds = new Set(data.map((s: { persona_id: string }) => s.persona_id));
    assert.equal(personaIds.size, 2, 'each seeded scenario has its own persona');
    for (const kind of ['plus_one', 'requirement_gathering']) {
      const summary = data.find((s: { default_kind: string }) => s.default_kind === kind);
      const full = ok(await a.call('GET', `/scenarios/${summary.id}`));
      assert.equal(full.default_kind, kind);
      assert.ok(full.Persona?.name && full.Persona.avatar_url, `${kind} persona`);
      assert.ok(
        full.prompt.includes('1. ') && full.prompt.includes('8. '),
        `${kind} script has numbered steps`,
      );
      assert.ok(full.Goals.length >= 3 && full.Goals.length <= 4);
      for (const goal of full.Goals) assert.match(goal.instructions, /Score 1-10/);
      assert.ok(full.welcome_message.length > 20);
      // The marker is read-only, the scenario itself is editable.
      expectError(await a.call('PUT', `/scenarios/${full.id}`, { default_kind: null }), 400, 'default_kind');
      const edited = ok(await a.call('PUT', `/scenarios/${full.id}`, { call_duration: 15 }));
      assert.equal(edited.default_kind, kind);
    }
  });

  test('delete is soft: 404 afterwards, meetings keep their scenario', async () => {
    const a = await t.workspace();
    const goal = ok(await a.call('POST', '/goals', { name: 'G' }), 201);
    const s = await scenario(a, { goals: [goal.id] });
    ok(await a.call('PUT', `/goals/${goal.id}`, { scenario_id: s.id }));
    const now = t.clock.now();
    await t.deps.db
      .insertInto('meetings')
      .values({
        id: randomUUID(),
        account_id: a.accountId,
        scenario_id: s.id,
        created_at: now,
        updated_at: now,
      })
      .execute();
    assert.deepEqual(ok(await a.call('DELETE', `/scenarios/${s.id}`)), {
      id: s.id,
      object: 'scenario',
      deleted: true,
    });
    expectError(await a.call('GET', `/scenarios/${s.id}`), 404, 'id');
    expectError(await a.call('PUT', `/scenarios/${s.id}`, { name: 'x' }), 404, 'id');
    expectError(await a.call('DELETE', `/scenarios/${s.id}`), 404, 'id');
    expectError(await a.call('GET', `/scenarios/membership/${s.id}/meetings`), 404, 'id');
    assert.ok(!ok(await a.call('GET', '/scenarios')).data.some((x: { id: string }) => x.id === s.id));
    const orphan = ok(await a.call('GET', `/goals/${goal.id}`));
    assert.equal(orphan.scenario_id, null);
    assert.deepEqual(orphan.scenarios, []);
    const meetings = await t.deps.db
      .selectFrom('meetings')
      .select('id')
      .where('scenario_id', '=', s.id)
      .execute();
    assert.equal(meetings.length, 1);
  });

  test('meetings of a scenario, newest first, paginated on request', async () => {
    const a = await t.workspace();
    const s = await scenario(a);
    const other = await scenario(a);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      t.clock.advance(1000);
      const now = t.clock.now();
      const id = randomUUID();
      ids.unshift(id);
      await t.deps.db
        .insertInto('meetings')
        .values({
          id,
          account_id: a.accountId,
          scenario_id: s.id,
          person_name: `Person ${i}`,
          status: i === 0 ? 'ended' : 'created',
          ended_at: i === 0 ? now : null,
          duration_seconds: i === 0 ? 600 : null,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    const now = t.clock.now();
    await t.deps.db
      .insertInto('meetings')
      .values({
        id: randomUUID(),
        account_id: a.accountId,
        scenario_id: other.id,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const all = ok(await a.call('GET', `/scenarios/membership/${s.id}/meetings`));
    assert.deepEqual(
      all.data.map((m: { id: string }) => m.id),
      ids,
    );
    const ended = all.data[2];
    assert.equal(ended.status, 'ended');
    assert.equal(ended.duration_seconds, 600);
    assert.equal(ended.person_name, 'Person 0');
    assert.equal(ended.analysis_status, 'not_started');
    const page = ok(await a.call('GET', `/scenarios/membership/${s.id}/meetings?limit=2`));
    assert.equal(page.data.length, 2);
    const rest = ok(
      await a.call('GET', `/scenarios/membership/${s.id}/meetings?limit=2&cursor=${page.next_cursor}`),
    );
    assert.deepEqual(
      rest.data.map((m: { id: string }) => m.id),
      [ids[2]],
    );
    assert.equal(rest.has_more, false);
  });

  test('export and import re-create the scenario in another workspace without secrets', async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    const goal = ok(
      await a.call('POST', '/goals', { name: 'Rapport', instructions: 'Score 1-10', metrics: { w: 1 } }),
      201,
    );
    const s = await scenario(a, {
      prompt: '## Flow\n1. Why are you here?',
      goals: [goal.id],
      custom_agent_enabled: true,
      custom_agent_config: {
        base_url: 'https://agent.example.com',
        api_key: API_KEY,
        extra_headers: { 'X-A': 'b' },
      },
      meeting_controls: { idle_timeout_seconds: 120 },
      session_options: { language: 'fr' },
    });
    // A legacy webhook (settable before its sunset only), which the export must leave out.
    const now = t.clock.now();
    t.clock.set(BEFORE_SUNSET);
    ok(
      await a.call('PUT', `/scenarios/${s.id}/session-options`, {
        webhook_url: 'https://hooks.example.com/a',
      }),
    );
    t.clock.set(now);
    await t.deps.db
      .insertInto('guardrails')
      .values({
        id: randomUUID(),
        account_id: a.accountId,
        membership_id: null,
        guardrail_name: 'no-prices',
        prompt_sealed: t.deps.secretBox.seal('Never quote prices.'),
        active: true,
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
      })
      .execute();
    const guardrail = await t.deps.db
      .selectFrom('guardrails')
      .select('id')
      .where('account_id', '=', a.accountId)
      .executeTakeFirstOrThrow();
    await t.deps.db
      .insertInto('scenario_guardrails')
      .values({
        scenario_id: s.id,
        guardrail_id: guardrail.id,
        account_id: a.accountId,
        active: true,
        position: 3,
        attached_at: t.clock.now(),
        updated_at: t.clock.now(),
      })
      .execute();
    const fnId = randomUUID();
    await t.deps.db
      .insertInto('custom_functions')
      .values({
        id: fnId,
        account_id: a.accountId,
        membership_id: null,
        name: 'lookup_order',
        description: 'Looks up an order',
        parameters_schema: JSON.stringify({ type: 'object', properties: { id: { type: 'string' } } }),
        execution_mode: 'webhook',
        webhook_url: 'https://tools.example.com/lookup',
        webhook_secret_sealed: t.deps.secretBox.seal('whsec_function_secret_value'),
        webhook_secret_last4: 'alue',
        timeout_ms: 4000,
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
      })
      .execute();
    await t.deps.db
      .insertInto('scenario_custom_functions')
      .values({ scenario_id: s.id, function_id: fnId, account_id: a.accountId, attached_at: t.clock.now() })
      .execute();

    const read = ok(await a.call('GET', `/scenarios/${s.id}`));
    assert.equal(read.guardrails[0].guardrail_name, 'no-prices');
    assert.equal(read.custom_functions[0].name, 'lookup_order');

    const exported = ok(await a.call('GET', `/scenarios/${s.id}/export`));
    const text = JSON.stringify(exported);
    for (const secret of [API_KEY, 'whsec_', 'hooks.example.com']) assert.ok(!text.includes(secret), secret);
    assert.equal(exported.format, 'understudy.scenario');
    assert.equal(exported.version, 1);
    assert.equal(exported.persona.name, 'Dana Whitfield');
    assert.equal(exported.goals[0].name, 'Rapport');
    assert.deepEqual(exported.guardrails, [
      {
        guardrail_name: 'no-prices',
        guardrail_prompt: 'Never quote prices.',
        active: true,
        attachment_active: true,
        position: 3,
      },
    ]);
    assert.equal(exported.custom_functions[0].webhook_url, 'https://tools.example.com/lookup');
    expectError(await b.call('GET', `/scenarios/${s.id}/export`), 404, 'id');

    const imported = ok(await b.call('POST', '/scenarios/import', exported), 201);
    assert.notEqual(imported.scenario_id, s.id);
    assert.equal(imported.data.name, s.name);
    assert.equal(imported.data.prompt, s.prompt);
    assert.equal(imported.data.default_kind, null);
    assert.notEqual(imported.data.Persona.id, s.Persona.id);
    assert.equal(imported.data.Goals[0].name, 'Rapport');
    assert.deepEqual(imported.data.Goals[0].metrics, { w: 1 });
    assert.equal(imported.data.custom_agent_config.api_key, null);
    assert.deepEqual(imported.data.custom_agent_config.extra_headers, { 'X-A': '****' });
    const importedAgent = await customAgentForScenario(
      t.deps.db,
      t.deps.secretBox,
      b.accountId,
      imported.scenario_id,
    );
    assert.deepEqual(importedAgent?.extra_headers, { 'X-A': 'b' });
    assert.equal(imported.data.meeting_controls.idle_timeout_seconds, 120);
    assert.equal(imported.data.session_options.language, 'fr');
    assert.equal(imported.data.session_options.webhook_url, null);
    assert.equal(imported.data.guardrails[0].guardrail_name, 'no-prices');
    assert.equal(imported.data.custom_functions[0].name, 'lookup_order');
    assert.equal(imported.custom_function_secrets.length, 1);
    assert.match(imported.custom_function_secrets[0].webhook_secret, /^whsec_/);
    assert.ok(imported.warnings.some((w: string) => w.includes('API key')));

    // Importing again reuses the guardrail and function created by the first import.
    const again = ok(await b.call('POST', '/scenarios/import', exported), 201);
    assert.equal(again.reused.guardrails.length, 1);
    assert.equal(again.reused.custom_functions.length, 1);
    assert.equal(again.custom_function_secrets.length, 0);

    const broken = { ...exported, goals: [{ name: 'x'.repeat(101) }] };
    expectError(await b.call('POST', '/scenarios/import', broken), 400, 'goals[0].name');
    expectError(await b.call('POST', '/scenarios/import', { ...exported, version: 2 }), 400, 'version');
    const badFunction = {
      ...exported.custom_functions[0],
      name: 'new_fn',
      parameters_schema: { type: 'string' },
    };
    expectError(
      await b.call('POST', '/scenarios/import', { ...exported, custom_functions: [badFunction] }),
      400,
      'custom_functions[0].parameters_schema',
    );
    // An import is held to the rules of the routes that create the same things, and names the
    // offending field where it sits in the document.
    const importing = (changes: Record<string, unknown>) =>
      b.call('POST', '/scenarios/import', { ...exported, ...changes });
    const fn = exported.custom_functions[0];
    expectError(
      await importing({ custom_functions: [{ ...fn, name: 'END_CALL' }] }),
      400,
      'custom_functions[0].name',
    );
    expectError(
      await importing({ custom_functions: [{ ...fn, name: 'long_help', description: 'd'.repeat(1025) }] }),
      400,
      'custom_functions[0].description',
    );
    expectError(await importing({ scenario: { ...exported.scenario, name: '  ' } }), 400, 'scenario.name');
    expectError(
      await importing({ scenario: { ...exported.scenario, custom_agent_config: null } }),
      400,
      'scenario.custom_agent_config.base_url',
    );
    expectError(
      await importing({
        scenario: {
          ...exported.scenario,
          custom_agent_config: {
            ...exported.scenario.custom_agent_config,
            extra_headers: { 'X-Internal-A': 'b' },
          },
        },
      }),
      400,
      'scenario.custom_agent_config.extra_headers.X-Internal-A',
    );
    expectError(await importing({ persona: { ...exported.persona, name: '  ' } }), 400, 'persona.name');
    expectError(
      await importing({ guardrails: [{ guardrail_name: 'blank-rule', guardrail_prompt: '   ' }] }),
      400,
      'guardrails[0].guardrail_prompt',
    );
    // None of the refused imports left anything behind.
    assert.equal(ok(await b.call('GET', '/scenarios')).data.length, 4);
  });

  test('another workspace gets 404 for every scenario route', async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    const s = await scenario(a);
    for (const [method, url, body] of [
      ['GET', `/scenarios/${s.id}`],
      ['PUT', `/scenarios/${s.id}`, { name: 'x' }],
      ['DELETE', `/scenarios/${s.id}`],
      ['GET', `/scenarios/${s.id}/export`],
      ['PUT', `/scenarios/${s.id}/session-options`, { language: 'en' }],
      ['GET', `/scenarios/membership/${s.id}/meetings`],
    ] as const) {
      expectError(await b.call(method, url, body), 404, 'id');
    }
    assert.ok(!ok(await b.call('GET', '/scenarios')).data.some((x: { id: string }) => x.id === s.id));
    expectError(await b.call('POST', '/goals', { name: 'x', scenarios: [s.id] }), 400, 'scenarios[0]');
    // Nor can an own scenario be pointed at the other workspace's persona or goals.
    const own = await scenario(b);
    const goal = ok(await a.call('POST', '/goals', { name: 'Theirs' }), 201);
    expectError(await b.call('PUT', `/scenarios/${own.id}`, { persona_id: s.persona_id }), 400, 'persona_id');
    expectError(await b.call('PUT', `/scenarios/${own.id}`, { goals: [goal.id] }), 400, 'goals[0]');
    expectError(await a.call('GET', '/scenarios/12345'), 404, 'id');
  });
});
