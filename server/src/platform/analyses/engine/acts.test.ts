import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readConversationActs } from './acts.ts';
import { readAgreement } from './agreement.ts';
import type { TranscriptTurn } from './types.ts';

const turn = (speaker: 'user' | 'agent', message: string, startSeconds: number): TranscriptTurn => ({
  speaker,
  message,
  startSeconds,
});

/** The acts of a participant line said after a persona line. */
function actsOf(line: string, before = 'Go on.'): Map<string, number> {
  const acts = readConversationActs([turn('agent', before, 0), turn('user', line, 2)]);
  return acts[0].acts;
}

test('an indirect question asks whatever its punctuation; a wish to know is not a next step', () => {
  const acts = actsOf("I'm curious what keeps you up at night about the roadmap.");
  assert.ok(acts.has('openQuestion'));
  const hear = actsOf("And I'd love to hear how you'll know, a year from now, that this hire was right.");
  assert.ok(hear.has('openQuestion'));
  assert.ok(!hear.has('nextStep'));
});

test('plans in the present tense with a forward time are next steps; past events are not', () => {
  assert.equal(actsOf('On the 30th we sit down and go through a handful of reviews.').get('nextStep'), 0.7);
  assert.ok(!actsOf('On Tuesday he wrote "did you even test this?" on her PR.').has('nextStep'));
  assert.ok(actsOf('This afternoon I’m writing up what we agreed.').has('nextStep'));
  // Both sides commit in a conditional exchange: two commitments.
  assert.equal(actsOf("If you can send the letter by Wednesday, I'll sign it by Friday.").get('nextStep'), 2);
});

test('a fix made or promised counts in full, a fix offered by "I can" half', () => {
  assert.equal(actsOf("I've removed the charge from your account.").get('fix'), 1);
  assert.equal(actsOf('I can reopen the ticket').get('fix'), 0.5);
});

test('an agreement: terms the persona confirms, terms left open, terms of the persona merely accepted', () => {
  const confirmed = [
    turn('agent', 'Our ceiling is 138.', 0),
    turn('user', "Here's what would work for me: 138 base and a March 1st start, letter by Wednesday.", 3),
    turn('agent', "Deal. I'll send it on Wednesday.", 9),
  ];
  const read = readAgreement(readConversationActs(confirmed), confirmed);
  assert.equal(read.confirmed.length, 1);
  const accepted = [
    turn('agent', 'We can offer 128,000. How does that sound?', 0),
    turn('user', "sure, that's fine", 3),
  ];
  const merely = readAgreement(readConversationActs(accepted), accepted);
  assert.deepEqual([merely.confirmed.length, merely.stated.length, merely.accepted.length], [0, 0, 1]);
});
