import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { test } from 'node:test';
import { legacyBodySignature, signatureHeader, verifySignature } from './signature.ts';

/**
 * A verifier written from the spec's words alone, sharing no code with signature.ts: this is
 * what a receiver would write, so signing bugs cannot hide behind a matching verification bug.
 */
function independentVerify(header: string, body: string, secret: string, nowSeconds: number): boolean {
  const fields = header.split(',').map((part) => part.split('='));
  const t = fields.find(([key]) => key === 't')?.[1];
  if (!t || Math.abs(nowSeconds - Number(t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return fields
    .filter(([key]) => key === 'v1')
    .some(([, hex]) => {
      const given = Buffer.from(hex, 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

const now = new Date('2026-11-01T12:00:00.000Z');
const nowSeconds = now.getTime() / 1000;
const body = '{"id":"evt_1","event":"meeting.created","data":{"meeting_id":"m","scenario_id":"s"}}';

test('the header is t=<unix seconds>,v1=<hex HMAC of "t.body">', () => {
  const header = signatureHeader({ secrets: ['whsec_a'], rawBody: body, now });
  assert.match(header, /^t=\d+,v1=[0-9a-f]{64}$/);
  assert.equal(header.split(',')[0], `t=${nowSeconds}`);
  assert.ok(independentVerify(header, body, 'whsec_a', nowSeconds));
  assert.ok(!independentVerify(header, `${body} `, 'whsec_a', nowSeconds), 'a changed body fails');
  assert.ok(!independentVerify(header, body, 'whsec_b', nowSeconds), 'another secret fails');
});

test('two secrets give two v1 segments, each verifiable alone', () => {
  const header = signatureHeader({ secrets: ['whsec_new', 'whsec_old'], rawBody: body, now });
  assert.equal(header.split(',').filter((part) => part.startsWith('v1=')).length, 2);
  assert.ok(independentVerify(header, body, 'whsec_new', nowSeconds));
  assert.ok(independentVerify(header, body, 'whsec_old', nowSeconds));
});

test('verifySignature accepts any matching v1 within the tolerance', () => {
  const header = signatureHeader({ secrets: ['whsec_new', 'whsec_old'], rawBody: body, now });
  assert.deepEqual(verifySignature({ header, rawBody: body, secrets: ['whsec_old'], now }), {
    ok: true,
    timestamp: nowSeconds,
  });
  assert.equal(
    verifySignature({ header, rawBody: Buffer.from(body), secrets: ['x', 'whsec_new'], now }).ok,
    true,
  );
  const later = new Date(now.getTime() + 300_000);
  assert.equal(verifySignature({ header, rawBody: body, secrets: ['whsec_new'], now: later }).ok, true);
});

test('verifySignature rejects stale and far-future timestamps', () => {
  const header = signatureHeader({ secrets: ['whsec_a'], rawBody: body, now });
  const stale = verifySignature({
    header,
    rawBody: body,
    secrets: ['whsec_a'],
    now: new Date(now.getTime() + 301_000),
  });
  assert.deepEqual(stale, { ok: false, reason: 'timestamp_outside_tolerance' });
  const early = verifySignature({
    header,
    rawBody: body,
    secrets: ['whsec_a'],
    now: new Date(now.getTime() - 301_000),
  });
  assert.equal(early.ok, false);
  const lenient = verifySignature({
    header,
    rawBody: body,
    secrets: ['whsec_a'],
    now: new Date(now.getTime() + 3_600_000),
    toleranceSeconds: 7_200,
  });
  assert.equal(lenient.ok, true);
});

test('verifySignature rejects a wrong secret, a changed body and malformed headers', () => {
  const header = signatureHeader({ secrets: ['whsec_a'], rawBody: body, now });
  assert.deepEqual(verifySignature({ header, rawBody: body, secrets: ['whsec_b'], now }), {
    ok: false,
    reason: 'no_matching_signature',
  });
  assert.equal(verifySignature({ header, rawBody: `${body}x`, secrets: ['whsec_a'], now }).ok, false);
  for (const malformed of [
    undefined,
    '',
    'v1=abc',
    `t=${nowSeconds}`,
    `t=soon,v1=${'a'.repeat(64)}`,
    'garbage',
  ]) {
    assert.deepEqual(verifySignature({ header: malformed, rawBody: body, secrets: ['whsec_a'], now }), {
      ok: false,
      reason: 'malformed_header',
    });
  }
});

test('verifySignature ignores unknown schemes beside a valid v1', () => {
  const header = `${signatureHeader({ secrets: ['whsec_a'], rawBody: body, now })},v2=whatever`;
  assert.equal(verifySignature({ header, rawBody: body, secrets: ['whsec_a'], now }).ok, true);
});

test('the legacy signature is sha256= and the hex HMAC of the body alone', () => {
  const expected = createHmac('sha256', 'legacy').update(body).digest('hex');
  assert.equal(legacyBodySignature('legacy', body), `sha256=${expected}`);
});
