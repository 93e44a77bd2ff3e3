import assert from 'node:assert/strict';
import { test } from 'node:test';
import { snippet, splitSentences, stem, tokenize } from './text.ts';

test('splitSentences splits at end punctuation and line breaks, not after abbreviations', () => {
  assert.deepEqual(splitSentences('We used caching, e.g. Redis. It worked! Did it?\nYes'), [
    'We used caching, e.g. Redis.',
    'It worked!',
    'Did it?',
    'Yes',
  ]);
  assert.deepEqual(splitSentences('  ...  '), []);
  assert.deepEqual(splitSentences('Version 2.5 shipped.'), ['Version 2.5 shipped.']);
});

test('tokenize keeps inner apostrophes, hyphens and dots and folds curly apostrophes', () => {
  assert.deepEqual(
    tokenize('I’m using Node.js for well-known APIs.').map((t) => t.norm),
    ["i'm", 'using', 'node.js', 'for', 'well-known', 'apis'],
  );
});

test('stem maps word forms to one stem', () => {
  assert.equal(stem('asked'), stem('asking'));
  assert.equal(stem('asks'), 'ask');
  assert.equal(stem('surfaced'), stem('surface'));
  assert.equal(stem('communication'), stem('communicate'));
  assert.equal(stem('questions'), stem('question'));
  assert.equal(stem('shipped'), 'ship');
  assert.equal(stem('databases'), stem('database'));
  assert.equal(stem('go'), 'go');
});

test('snippet returns short text whole and cuts long text at word boundaries', () => {
  assert.equal(snippet('  Short   answer. '), 'Short answer.');
  const long =
    'First we profiled the service for a whole week, then we found that the orders table lock was the bottleneck for every checkout request.';
  const start = long.indexOf('orders');
  const cut = snippet(long, start, start + 'orders'.length, 60);
  assert.ok(cut.length <= 62, cut);
  assert.ok(cut.includes('orders'), cut);
  assert.ok(cut.startsWith('…') && cut.endsWith('…'), cut);
  assert.ok(long.includes(cut.replace(/…/g, '')), cut);
});
