import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '../../src/core/clock.ts';
import { TestReceiver } from '../../src/core/delivery/testing/receiver.ts';
import { DeliveryWorker } from '../../src/core/delivery/worker.ts';
import { outboundPolicyFor } from '../../src/core/outbound/address-policy.ts';
import { OutboundClient } from '../../src/core/outbound/client.ts';
import { STRONG_INTERVIEW } from '../../src/platform/analyses/engine/test-fixtures.ts';
import { createLegacyWebhookProfile } from '../../src/platform/events/legacy-webhook.ts';
import { createPlatformWebhookProfile } from '../../src/platform/events/webhook-profile.ts';
import { webhookPayloadErrors } from '../documented-payload.ts';
import { type ApiClient, ok, type TestPlatform } from '../harness.ts';
import {
  analysisRunner,
  createScenario,
  INTERVIEW_GOAL_BODIES,
  insertEndedMeeting,
  type ScenarioSetup,
  silentLogger,
  startAnalysisPlatform,
} from './helpers.ts';

// Receiver-side checks written from the spec ("Events"), independent of the server's signing code.
function verifyServiceSignature(header: string | undefined, rawBody: string, secret: string, nowMs: number) {
  if (!header) return false;
  const parts = header.split(',').map((part) => part.trim());
  const t = parts.find((part) => part.startsWith('t='))?.slice(2);
  const candidates = parts.filter((part) => part.startsWith('v1=')).map((part) => part.slice(3));
  if (!t || candidates.length === 0) return false;
  if (Math.abs(nowMs / 1000 - Number(t)) > 5 * 60) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return candidates.some((hex) => {
    const given = Buffer.from(hex, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

function verifyLegacyBodySignature(header: string | undefined, rawBody: string, secret: string) {
  if (!header?.startsWith('sha256=')) return false;
  const given = Buffer.from(header.slice(7), 'hex');
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const sorted = (value: object) => Object.keys(value).sort();

describe('analysis webhooks: session.analysis_complete and the legacy meeting.completed', () => {
  let t: TestPlatform;
  let receiver: TestReceiver;
  let client: OutboundClient;
  let worker: DeliveryWorker;
  let caller: ApiClient;
  let setup: ScenarioSetup;
  let signingSecret: string;
  let legacySecret: string;

  before(async () => {
    t = await startAnalysisPlatform({ clock: new FakeClock('2026-09-01T09:00:00.000Z') });
    receiver = await TestReceiver.start();
    client = new OutboundClient(outboundPolicyFor(t.deps.config));
    worker = new DeliveryWorker({
      database: t.deps.database,
      clock: t.clock,
      client,
      profiles: [
        createPlatformWebhookProfile({ secretBox: t.deps.secretBox }),
        createLegacyWebhookProfile({
          secretBox: t.deps.secretBox,
          legacyWebhookSunset: t.deps.config.legacyWebhookSunset,
        }),
      ],
      logger: silentLogger,
    });
    caller = await t.workspace();
    setup = await createScenario(caller);
    const endpoint = ok(
      await caller.call('POST', '/webhooks/endpoints', {
        url: receiver.url.replace('/hooks', '/platform'),
        subscribed_events: ['session.analysis_complete', 'analysis.failed'],
      }),
      201,
    );
    signingSecret = endpoint.data.signing_secret;
    const options = ok(
      await caller.call('PUT', `/scenarios/${setup.scenarioId}/session-options`, {
        webhook_url: receiver.url.replace('/hooks', '/legacy'),
      }),
    );
    legacySecret = options.webhook_secret;
    assert.match(legacySecret, /^whsec_/);
  });
  after(async () => {
    await client.close();
    await receiver.close();
    await t.close();
  });

  async function deliverAll(expected: number) {
    const deadline = Date.now() + 10_000;
    while (receiver.requests.length < expected && Date.now() < deadline) await worker.runOnce();
  }

  it('delivers the analysis signed, with goal_results as { goal, result } and strings for strengths', async () => {
    const { meetingId } = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, STRONG_INTERVIEW);
    t.clock.advance(1_000);
    await analysisRunner(t).drain();
    await deliverAll(2);
    assert.equal(receiver.requests.length, 2);
    const platform = receiver.requests.find((r) => r.path === '/platform')!;
    const legacy = receiver.requests.find((r) => r.path === '/legacy')!;
    assert.ok(platform && legacy);
    const standalone = ok(await caller.call('GET', `/analyses/meeting/${meetingId}`));

    const now = t.clock.now().getTime();
    assert.ok(
      verifyServiceSignature(
        platform.headers['service-signature'] as string,
        platform.rawBody,
        signingSecret,
        now,
      ),
    );
    assert.ok(
      !verifyServiceSignature(
        platform.headers['service-signature'] as string,
        platform.rawBody.replace('"score":', '"score": '),
        signingSecret,
        now,
      ),
      'a changed body does not verify',
    );
    assert.ok(
      !verifyServiceSignature(
        platform.headers['service-signature'] as string,
        platform.rawBody,
        'whsec_other',
        now,
      ),
    );
    const envelope = JSON.parse(platform.rawBody);
    assert.deepEqual(sorted(envelope), ['created_at', 'data', 'event', 'id']);
    assert.equal(envelope.event, 'session.analysis_complete');
    assert.equal(envelope.data.meeting_id, meetingId);
    assert.equal(envelope.data.scenario_id, setup.scenarioId);
    const analysis = envelope.data.analysis;
    assert.equal(analysis.analysis_id, standalone.id);
    assert.equal(typeof analysis.strengths, 'string');
    assert.equal(typeof analysis.growth_areas, 'string');
    assert.equal(analysis.strengths, standalone.strengths.join('\n'));
    assert.deepEqual(analysis.recommendations, standalone.recommendations);
    assert.deepEqual(analysis.highlights, standalone.highlights);
    assert.equal(analysis.conversation_length, standalone.conversation_length);
    assert.deepEqual(
      analysis.goal_results,
      standalone.GoalResults.map((result: { score: number; feedback: string }, i: number) => ({
        goal: INTERVIEW_GOAL_BODIES[i]!.name,
        result: { score: result.score, feedback: result.feedback },
      })),
    );

    // The legacy per-scenario webhook: both signatures, the documented data fields.
    assert.ok(
      verifyServiceSignature(
        legacy.headers['service-signature'] as string,
        legacy.rawBody,
        legacySecret,
        now,
      ),
    );
    assert.ok(
      verifyLegacyBodySignature(
        legacy.headers['x-service-signature'] as string,
        legacy.rawBody,
        legacySecret,
      ),
    );
    assert.ok(
      !verifyLegacyBodySignature(
        legacy.headers['x-service-signature'] as string,
        `${legacy.rawBody} `,
        legacySecret,
      ),
    );
    const legacyEnvelope = JSON.parse(legacy.rawBody);
    assert.equal(legacyEnvelope.event, 'meeting.completed');
    assert.deepEqual(sorted(legacyEnvelope.data), [
      'completed_at',
      'goals',
      'meeting_id',
      'person_name',
      'scenario_id',
    ]);
    assert.equal(legacyEnvelope.data.meeting_id, meetingId);
    assert.equal(legacyEnvelope.data.person_name, 'Priya Raman');
    assert.deepEqual(
      legacyEnvelope.data.goals,
      standalone.GoalResults.map((result: { score: number }, i: number) => ({
        name: INTERVIEW_GOAL_BODIES[i]!.name,
        score: result.score,
      })),
    );
    assert.equal(legacyEnvelope.data.completed_at, t.clock.now().toISOString());
  });

  it('sends payloads that fit the schemas the OpenAPI document publishes for them', async () => {
    const document = ok(await t.app.inject({ method: 'GET', url: '/v1/openapi.json' }));
    const platform = receiver.requests.find((r) => r.path === '/platform')!;
    const legacy = receiver.requests.find((r) => r.path === '/legacy')!;
    const analysisComplete = JSON.parse(platform.rawBody);
    assert.ok(analysisComplete.data.analysis.goal_results.length > 0, 'goal results to check');
    assert.ok(analysisComplete.data.analysis.highlights.length > 0, 'highlights to check');
    assert.deepEqual(webhookPayloadErrors(document, 'session.analysis_complete', analysisComplete), []);
    assert.deepEqual(webhookPayloadErrors(document, 'meeting.completed', JSON.parse(legacy.rawBody)), []);

    // The check has teeth: a missing field, a field of the API's shape instead, an undocumented one.
    const { strengths, ...withoutStrengths } = analysisComplete.data.analysis;
    const variants = [
      withoutStrengths,
      { ...analysisComplete.data.analysis, strengths: strengths.split('\n') },
      { ...analysisComplete.data.analysis, goal_results: [{ goal: 'x', score: 1, feedback: 'y' }] },
      { ...analysisComplete.data.analysis, title: 'undocumented' },
    ];
    for (const analysis of variants) {
      const body = { ...analysisComplete, data: { ...analysisComplete.data, analysis } };
      assert.notDeepEqual(webhookPayloadErrors(document, 'session.analysis_complete', body), []);
    }
  });

  it('stops the legacy webhook after its sunset; the platform webhook goes on', async () => {
    receiver.requests.length = 0;
    t.clock.set('2026-09-26T00:00:00.000Z');
    const { meetingId } = await insertEndedMeeting(t, caller.accountId, setup.scenarioId, STRONG_INTERVIEW);
    t.clock.advance(1_000);
    await analysisRunner(t).drain();
    await deliverAll(1);
    for (let i = 0; i < 3; i += 1) await worker.runOnce();
    assert.deepEqual(
      receiver.requests.map((r) => r.path),
      ['/platform'],
    );
    assert.equal(JSON.parse(receiver.requests[0]!.rawBody).data.meeting_id, meetingId);
  });
});
