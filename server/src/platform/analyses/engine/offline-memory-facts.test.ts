import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractMemoriesOffline, MAX_MEMORY_LENGTH } from './offline-memory-facts.ts';
import { STRONG_INTERVIEW, WEAK_INTERVIEW } from './test-fixtures.ts';
import type { TranscriptTurn } from './types.ts';

const user = (message: string, startSeconds = 0): TranscriptTurn => ({
  speaker: 'user',
  message,
  startSeconds,
});

test('extractMemoriesOffline rewrites first-person facts in the third person', () => {
  const turns: TranscriptTurn[] = [
    user(
      "Hi! My name's Jamie Ortiz. Um, I currently work for Northwind Health, and I live in Lisbon with my partner.",
    ),
    { speaker: 'agent', message: 'I work at Understudy and I live in the cloud.', startSeconds: 5 },
    user(
      "I've got over 10 years of experience in data engineering. I'm a little nervous, honestly. I prefer async communication because meetings drain me.",
      10,
    ),
    user(
      "My goal is to become a staff engineer by next year. Do I work at a startup? I work for Northwind Health. I'm based in Portugal. I prefer it.",
      20,
    ),
    user(
      "I have a master's degree in statistics, and I'm interested in machine learning, you know. I'm a backend engineer who loves Go.",
      30,
    ),
  ];
  assert.deepEqual(extractMemoriesOffline(turns), [
    'Name is Jamie Ortiz.',
    'Works for Northwind Health.',
    'Lives in Lisbon with their partner.',
    'Has over 10 years of experience in data engineering.',
    'Prefers async communication.',
    'Goal is to become a staff engineer by next year.',
    'Is based in Portugal.',
    "Has a master's degree in statistics.",
    'Is interested in machine learning.',
    'Is a backend engineer who loves Go.',
  ]);
});

test('extractMemoriesOffline on the interview fixtures', () => {
  assert.deepEqual(extractMemoriesOffline(STRONG_INTERVIEW), [
    'Name is Priya.',
    'Works at Finlytics as a backend engineer.',
    'Has 6 years of experience building payment APIs in Go and PostgreSQL.',
    'Leads a team of four engineers.',
  ]);
  assert.deepEqual(extractMemoriesOffline(WEAK_INTERVIEW), []);
});

test('memories are single lines of at most 1000 characters', () => {
  const long = `I work at ${'Very Long Company Name '.repeat(80)}Inc.`;
  const [fact] = extractMemoriesOffline([user(long)]);
  assert.ok(fact.length <= MAX_MEMORY_LENGTH, String(fact.length));
  assert.ok(fact.startsWith('Works at Very Long Company Name'));
  assert.ok(fact.endsWith('…'));
  const [multi] = extractMemoriesOffline([user('I live in New\u00a0York   City')]);
  assert.equal(multi, 'Lives in New York City.');
});
