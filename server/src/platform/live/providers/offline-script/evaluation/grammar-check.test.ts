// The agreement check the evaluation runs over what the persona says (scripts/grammar-check.py,
// link-grammar). Skipped when Debian's link-grammar binding is not installed (scripts/ensure-grammar.sh).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkGrammar } from './measure.ts';

const WRONG = [
  'I has three depots.',
  'me pay for 220 seats',
  'I got a bill me think is wrong.',
  'She are upset.',
];
const RIGHT = ['I run three depots.', 'We pay £42,000 a year.', 'Honestly, I’m not sure — maybe 18 % more.'];

describe('grammar check (link-grammar)', async () => {
  const probe = await checkGrammar([]);
  it('flags agreement errors and accepts correct sentences', {
    skip: probe.checked ? false : probe.reason,
  }, async () => {
    const report = await checkGrammar([...WRONG, ...RIGHT]);
    assert.ok(report.checked);
    assert.deepEqual(report.errors.map((e) => e.sentence).sort(), [...WRONG].sort());
    const fix = (s: string) => report.errors.find((e) => e.sentence === s)?.fix ?? '';
    assert.match(fix('I has three depots.'), /^I have three depots/);
    assert.match(fix('me pay for 220 seats'), /^I pay for 220 seats/);
  });
});
