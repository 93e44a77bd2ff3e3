import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readConversationActs } from './acts.ts';
import { coverage, factsToCollect, goalItems } from './goal-topics.ts';
import type { GoalDefinition, TranscriptTurn } from './types.ts';

const goal = (name: string, description: string): GoalDefinition => ({
  id: 'g',
  name,
  description,
  instructions: null,
  active: true,
});

const turn = (speaker: 'user' | 'agent', message: string, startSeconds: number): TranscriptTurn => ({
  speaker,
  message,
  startSeconds,
});

test('a goal enumerating facts lists them with their kinds; topics without kinds are not facts to collect', () => {
  const constraints = goal(
    'Captures constraints',
    'Finds out the budget, the deadline and the tools it must work with.',
  );
  assert.deepEqual(
    goalItems(constraints).map((i) => [i.text, i.kind]),
    [
      ['the budget', 'money'],
      ['the deadline', 'date'],
      ['the tools', 'system'],
    ],
  );
  assert.equal(factsToCollect(constraints).length, 3);
  const ideas = goal(
    'Generates ideas',
    'Puts several ideas on the table: partnerships, campus events, referral mechanics.',
  );
  assert.deepEqual(factsToCollect(ideas), []);
});

test('an item is covered by a question naming it or asking for its kind, or by an answer carrying it', () => {
  const items = factsToCollect(
    goal(
      'Gathers the details',
      'Collects what is needed: date of service, provider, insurance plan and member ID.',
    ),
  );
  const turns = [
    turn('agent', 'I got a bill I should not have.', 0),
    turn('user', 'and the day you came in', 5),
    turn('agent', 'March 3rd.', 8),
    turn('user', 'and who did you see that day', 10),
    turn('agent', 'Doctor Chen at Elm Street.', 13),
  ];
  const found = coverage(items, readConversationActs(turns), turns);
  assert.deepEqual(
    found.covered.map((i) => i.text),
    ['date of service', 'provider'],
  );
  assert.equal(found.sentences.length, 2);
  // "What happens when…" uses "when" as a conjunction: it does not ask for a date.
  const other = [
    turn('user', 'What happens when a patient needs to cancel?', 0),
    turn('agent', 'They call us.', 3),
  ];
  assert.deepEqual(coverage(items, readConversationActs(other), other).covered, []);
});
