// The SDK's verifiers against the service's own signing code (core/delivery/signature.ts and the
// mailbox profile's HMAC): the legacy X-Service-Signature, which only a legacy webhook before its
// sunset sends, and the edge cases of Service-Signature (future timestamps, other schemes, bytes).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  verifyLegacySignature,
  verifyMailboxSignature,
  verifyServiceSignature,
  verifyWebhook,
  WebhookVerificationError,
} from '../../../sdk/node/src/index.ts';
import { hmacSha256Hex } from '../../src/core/crypto/hashing.ts';
import { legacyBodySignature, signatureHeader } from '../../src/core/delivery/signature.ts';

const body = JSON.stringify({ id: 'evt_1', event: 'meeting.completed', data: { note: 'naïve café' } });
const now = new Date('2026-11-01T12:00:00Z');

test('the legacy webhook: Service-Signature and X-Service-Signature both verify; the first wins', () => {
  const headers = {
    'Service-Signature': signatureHeader({ secrets: ['whsec_legacy'], rawBody: body, now }),
    'X-Service-Signature': legacyBodySignature('whsec_legacy', body),
  };
  assert.equal(
    verifyLegacySignature(headers['X-Service-Signature'], body, { secrets: 'whsec_legacy' }).ok,
    true,
  );
  assert.equal(
    verifyLegacySignature(headers['X-Service-Signature'], body, { secrets: 'whsec_other' }).ok,
    false,
  );
  assert.deepEqual(verifyLegacySignature('deadbeef', body, { secrets: 'whsec_legacy' }), {
    ok: false,
    reason: 'malformed_header',
  });
  const event = verifyWebhook<{ id: string }>(Buffer.from(body), headers, { secrets: ['whsec_legacy'], now });
  assert.equal(event.id, 'evt_1');
  const legacyOnly = { 'x-service-signature': headers['X-Service-Signature'] };
  const options = { secrets: 'whsec_legacy', schemes: ['legacy'] } as const;
  assert.equal(verifyWebhook<{ id: string }>(body, legacyOnly, options).id, 'evt_1');
});

test('a captured legacy delivery with Service-Signature stripped is refused unless legacy is opted into', () => {
  const legacyOnly = { 'X-Service-Signature': legacyBodySignature('whsec_legacy', body) };
  const refusedAs = (options: Parameters<typeof verifyWebhook>[2], reason: string) =>
    assert.throws(
      () => verifyWebhook(body, legacyOnly, options),
      (error: unknown) => error instanceof WebhookVerificationError && error.reason === reason,
    );
  refusedAs({ secrets: 'whsec_legacy', now }, 'missing_header');
  // The legacy value is the mailbox's scheme with a prefix: neither header stands in for the other.
  refusedAs({ secrets: 'whsec_legacy', schemes: ['mailbox'] }, 'missing_header');
  const asMailbox = { 'X-Mailbox-Signature': legacyOnly['X-Service-Signature'] };
  assert.throws(() => verifyWebhook(body, asMailbox, { secrets: 'whsec_legacy', schemes: ['legacy'] }));
  assert.equal(
    verifyWebhook<{ id: string }>(body, legacyOnly, {
      secrets: 'whsec_legacy',
      schemes: ['service', 'legacy'],
    }).id,
    'evt_1',
  );
});

test('an empty or missing secret (an unset environment variable) is refused, not verified against', () => {
  const headers = { 'X-Mailbox-Signature': hmacSha256Hex('', body) };
  for (const secrets of [undefined, '', [], ['whsec_ok', undefined], ['']]) {
    const options = { secrets, schemes: ['mailbox'] } as unknown as Parameters<typeof verifyWebhook>[2];
    assert.throws(() => verifyWebhook(body, headers, options), /non-empty/);
    assert.throws(() => verifyMailboxSignature(headers['X-Mailbox-Signature'], body, options), /non-empty/);
  }
});

test('Service-Signature: bytes or text, future timestamps refused, unknown schemes ignored', () => {
  const header = signatureHeader({ secrets: ['whsec_new', 'whsec_old'], rawBody: body, now });
  const bytes = new TextEncoder().encode(body);
  assert.equal(verifyServiceSignature(header, bytes, { secrets: 'whsec_old', now }).ok, true);
  assert.equal(verifyServiceSignature(`${header},v2=abc`, body, { secrets: 'whsec_new', now }).ok, true);
  const early = new Date(now.getTime() - 301_000);
  assert.deepEqual(verifyServiceSignature(header, body, { secrets: 'whsec_new', now: early }), {
    ok: false,
    reason: 'timestamp_outside_tolerance',
  });
  assert.equal(
    verifyServiceSignature(header, body, { secrets: 'whsec_new', now: early, toleranceSeconds: 600 }).ok,
    true,
  );
  assert.deepEqual(verifyServiceSignature('t=abc,v1=00', body, { secrets: 'whsec_new', now }), {
    ok: false,
    reason: 'malformed_header',
  });
});

test('X-Mailbox-Signature, and a delivery without any signature', () => {
  const signature = hmacSha256Hex('whsec_mail', body);
  assert.equal(verifyMailboxSignature(signature, body, { secrets: ['whsec_x', 'whsec_mail'] }).ok, true);
  assert.equal(verifyMailboxSignature(signature.toUpperCase(), body, { secrets: 'whsec_mail' }).ok, true);
  assert.equal(verifyMailboxSignature(signature.slice(2), body, { secrets: 'whsec_mail' }).ok, false);
  assert.throws(
    () =>
      verifyWebhook(
        body,
        { 'content-type': 'application/json' },
        { secrets: 'whsec_mail', schemes: ['mailbox'] },
      ),
    (error: unknown) => error instanceof WebhookVerificationError && error.reason === 'missing_header',
  );
});

test('verifyWebhook refuses a scheme name it does not know, rather than refusing every delivery', () => {
  const headers = { 'Service-Signature': signatureHeader({ secrets: ['whsec_a'], rawBody: body, now }) };
  const verify = (schemes: unknown) =>
    verifyWebhook(body, headers, { secrets: 'whsec_a', now, schemes: schemes as never });
  assert.throws(() => verify(['service', 'Mailbox']), {
    name: 'TypeError',
    message: /unknown signature scheme "Mailbox"/,
  });
  assert.throws(() => verify(['svc']), TypeError);
  assert.throws(() => verify('service'), TypeError);
  assert.equal((verify(['service']) as { id: string }).id, 'evt_1');
});
