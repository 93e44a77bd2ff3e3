// The legacy per-scenario webhook around its sunset (docs/webhooks.md, "The legacy per-scenario
// webhook"): before it, session-options `webhook_url` is accepted as always; from it on, setting
// one answers 400 naming webhook_url and pointing to webhook endpoints, since nothing would ever be
// sent to it, while null still clears an old one and the other options still change.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FakeClock } from '../../src/core/clock.ts';
import { type ApiClient, ok, startPlatform, type TestPlatform } from '../harness.ts';

let t: TestPlatform;
let a: ApiClient;
before(async () => {
  t = await startPlatform({ clock: new FakeClock('2026-09-24T23:59:59.000Z') });
  a = await t.workspace();
});
after(() => t.close());

/** One of the workspace's seeded scenarios. */
async function newScenario(): Promise<string> {
  return ok(await a.call('GET', '/scenarios')).data[0].id;
}

describe('the legacy webhook and its sunset', () => {
  test('before the sunset a webhook_url is set; from the sunset on it is refused, and clearing still works', async () => {
    assert.equal(t.deps.config.legacyWebhookSunset.toISOString(), '2026-09-25T00:00:00.000Z');
    const scenarioId = await newScenario();
    const url = `/scenarios/${scenarioId}/session-options`;
    const set = ok(
      await a.call('PUT', url, { webhook_url: 'https://hooks.example.com/legacy', recording_enabled: true }),
    );
    assert.equal(set.webhook_url, 'https://hooks.example.com/legacy');
    assert.match(set.webhook_secret, /^whsec_/);

    t.clock.set('2026-09-25T00:00:00.000Z');
    for (const webhook_url of ['https://hooks.example.com/new', 'https://hooks.example.com/legacy']) {
      const refused = await a.call('PUT', url, { webhook_url, recording_enabled: false });
      assert.equal(refused.statusCode, 400, refused.body);
      const { error } = refused.json();
      assert.equal(error.code, 'parameter_not_allowed');
      assert.equal(error.param, 'webhook_url');
      assert.match(error.message, /webhook_url is retired/);
      assert.match(error.message, /POST \/v1\/webhooks\/endpoints/);
      assert.equal(refused.headers.sunset, 'Fri, 25 Sep 2026 00:00:00 GMT', 'the deprecation headers stay');
    }
    const unchanged = ok(await a.call('GET', `/scenarios/${scenarioId}`)).session_options;
    assert.equal(
      unchanged.webhook_url,
      'https://hooks.example.com/legacy',
      'a refused request changes nothing',
    );
    assert.equal(unchanged.recording_enabled, true);

    const other = ok(await a.call('PUT', url, { recording_enabled: false }));
    assert.equal(other.recording_enabled, false, 'the other options still change');
    const cleared = ok(await a.call('PUT', url, { webhook_url: null }));
    assert.equal(cleared.webhook_url, null);
    const row = await t.deps.db
      .selectFrom('scenarios')
      .select(['legacy_webhook_url', 'legacy_webhook_secret'])
      .where('id', '=', scenarioId)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { legacy_webhook_url: null, legacy_webhook_secret: null });
  });
});
