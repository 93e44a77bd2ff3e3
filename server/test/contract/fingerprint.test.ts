import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalJson, fingerprintOf } from '../../src/contract/canonical-json.ts';

test('the fingerprint follows the content, not key order or indentation', () => {
  const a = JSON.parse('{"b": [1, {"y": "é", "x": null}], "a": 1.5}');
  const b = JSON.parse('{"a":1.5,"b":[1,{"x":null,"y":"é"}]}');
  assert.equal(canonicalJson(a), '{"a":1.5,"b":[1,{"x":null,"y":"é"}]}');
  assert.equal(fingerprintOf(a), fingerprintOf(b));
  assert.match(fingerprintOf(a), /^[0-9a-f]{64}$/);
  assert.notEqual(fingerprintOf(a), fingerprintOf({ ...b, a: 2 }));
  assert.notEqual(fingerprintOf([1, 2]), fingerprintOf([2, 1]), 'array order is content');
});
