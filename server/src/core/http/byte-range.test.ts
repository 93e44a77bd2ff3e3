import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decideRange } from './byte-range.ts';

const none = { etag: null, lastModified: null };
const decide = (range: string | undefined, size = 100, ifRange?: string) =>
  decideRange({ range, ifRange }, size, none);

test('single ranges resolve to inclusive positions inside the representation', () => {
  assert.deepEqual(decide('bytes=0-9'), { kind: 'partial', range: { start: 0, end: 9 } });
  assert.deepEqual(decide('bytes=90-'), { kind: 'partial', range: { start: 90, end: 99 } });
  assert.deepEqual(decide('bytes=-10'), { kind: 'partial', range: { start: 90, end: 99 } });
  assert.deepEqual(decide('bytes=-1000'), { kind: 'partial', range: { start: 0, end: 99 } });
  assert.deepEqual(decide('bytes=50-1000'), { kind: 'partial', range: { start: 50, end: 99 } });
  // The unit is case-insensitive, list whitespace and empty elements are allowed.
  assert.deepEqual(decide('Bytes= 5-6 ,'), { kind: 'partial', range: { start: 5, end: 6 } });
  assert.deepEqual(decide(`bytes=0-${'9'.repeat(400)}`), { kind: 'partial', range: { start: 0, end: 99 } });
});

test('unsatisfiable and invalid single ranges', () => {
  for (const range of ['bytes=100-', 'bytes=100-200', 'bytes=-0', 'bytes=9-3', `bytes=${'9'.repeat(400)}-`])
    assert.deepEqual(decide(range), { kind: 'unsatisfiable' }, range);
  assert.deepEqual(decide('bytes=0-0', 0), { kind: 'unsatisfiable' }, 'an empty representation');
  assert.deepEqual(decide('bytes=-5', 0), { kind: 'unsatisfiable' }, 'an empty representation');
});

test('what is ignored gets the whole representation', () => {
  for (const range of [
    undefined,
    '',
    'bytes=0-1,5-6',
    'pages=1-2',
    'bytes=x-1',
    'bytes=1',
    'bytes=+1-2',
    'bytes=1.5-2',
    'bytes=-',
  ])
    assert.deepEqual(decide(range), { kind: 'full' }, String(range));
});

test('If-Range compares entity tags strongly and dates exactly', () => {
  const validators = { etag: '"64-abc"', lastModified: new Date('2026-10-21T07:28:00.250Z') };
  const with_ = (ifRange: string) => decideRange({ range: 'bytes=0-0', ifRange }, 100, validators).kind;
  assert.equal(with_('"64-abc"'), 'partial');
  assert.equal(with_('W/"64-abc"'), 'full');
  assert.equal(with_('"other"'), 'full');
  assert.equal(with_('Wed, 21 Oct 2026 07:28:00 GMT'), 'partial');
  assert.equal(with_('Wed, 21 Oct 2026 07:28:01 GMT'), 'full');
  assert.equal(with_('garbage'), 'full');
  assert.equal(decideRange({ range: 'bytes=0-0', ifRange: '"x"' }, 100, none).kind, 'full');
});
