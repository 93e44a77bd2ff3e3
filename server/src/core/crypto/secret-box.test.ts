import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { safeEqual } from './hashing.ts';
import { SecretBox } from './secret-box.ts';

test('seals and opens, never storing the plaintext', () => {
  const box = new SecretBox(randomBytes(32));
  const sealed = box.seal('a guardrail prompt');
  assert.ok(!sealed.includes('guardrail'));
  assert.equal(box.open(sealed), 'a guardrail prompt');
  assert.notEqual(box.seal('same'), box.seal('same'), 'a fresh IV each time');
});

test('a tampered ciphertext or a wrong key does not open', () => {
  const box = new SecretBox(randomBytes(32));
  const sealed = box.seal('secret');
  const parts = sealed.split('.');
  parts[4] = Buffer.from('other!').toString('base64url');
  assert.throws(() => box.open(parts.join('.')));
  assert.throws(() => new SecretBox(randomBytes(32)).open(sealed));
});

test('a rotated key still opens what the previous key sealed', () => {
  const old = randomBytes(32);
  const sealed = new SecretBox(old).seal('kept');
  assert.equal(new SecretBox(randomBytes(32), [old]).open(sealed), 'kept');
});

test('safeEqual compares exactly', () => {
  assert.equal(safeEqual('abc', 'abc'), true);
  assert.equal(safeEqual('abc', 'abd'), false);
  assert.equal(safeEqual('abc', 'abcd'), false);
});

test('looksSealed recognises the sealed format only', () => {
  const box = new SecretBox(randomBytes(32));
  assert.equal(SecretBox.looksSealed(box.seal('x')), true);
  assert.equal(SecretBox.looksSealed(box.seal('')), true);
  assert.equal(SecretBox.looksSealed('acme'), false);
  assert.equal(SecretBox.looksSealed('v1.abc.def'), false);
});
