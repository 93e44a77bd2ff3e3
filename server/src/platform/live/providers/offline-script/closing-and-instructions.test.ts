// Two readings of ordinary language the engine relies on: a participant's leave-taking, in the
// phrasings people use, ends the call; a scenario's instruction to the persona is never a fact.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyUtterance } from './conversation.ts';
import { isImperative } from './imperative.ts';

test('leave-taking in ordinary phrasings is a goodbye; thanks or "that\'s it" inside an answer is not', () => {
  for (const text of [
    'Take care, bye now.',
    'Thanks for your time, talk soon!',
    'Great, thank you so much for your time today.',
    "OK I think we're done here.",
    "I'll send the quote on Friday. Have a good one!",
    "That's everything from me. Speak to you next week.",
    'Cheers, catch you later.',
  ]) {
    assert.equal(classifyUtterance(text).kind, 'goodbye', text);
  }
  for (const text of [
    'Thanks for explaining the budget, how long would the rollout take?',
    "Yes, that's it exactly: the invoices arrive by email.",
    'I take care of the scheduling myself, mostly in spreadsheets.',
    'We talked about it last week with the team.',
  ]) {
    assert.notEqual(classifyUtterance(text).kind, 'goodbye', text);
  }
});

test('a turn that wraps up (thanks and a next step, "that\'s all our questions", "let\'s stop there") closes without a goodbye', () => {
  for (const text of [
    "That's all our questions. Thanks so much for your time, Grace, we'll be in touch by the end of the week.",
    "Brilliant, loads to work with there. Thanks Owen, I'll write this up and send it round.",
    "Okay, leave it with me and I'll talk to finance this week. Thanks for raising it, Leo.",
    "Let's stop there for today. Good work, Amara - same time in two weeks?",
    'Thank you, we will get back to you with a proposal next week.',
  ]) {
    assert.equal(classifyUtterance(text).kind, 'goodbye', text);
  }
  for (const text of [
    // A next step inside an answer, or thanks before a question, keeps the call going.
    "I'll send the revised quote by Friday, and it includes onboarding.",
    "Thanks, I'll look into that. What else is slowing the team down?",
    "Let's stop there for a second: what do you mean by a pilot?",
    "Thanks for that. We'll talk to your finance team about the contract terms, is that right?",
  ]) {
    assert.notEqual(classifyUtterance(text).kind, 'goodbye', text);
  }
});

test('instructions to the persona are told from facts by their grammar, not a word list', () => {
  for (const text of [
    'Concede on payment terms before price.',
    'At the end, tell them my procurement lead will follow up.',
    'If they push on price, hold firm twice.',
    'Keep your answers short.',
    'Only reveal the budget when asked directly.',
    'Be helpful and detailed.',
    'Push back on every claim of value.',
  ]) {
    assert.equal(isImperative(text), true, text);
  }
  for (const text of [
    'Manages 40 people across three sites.',
    'Budget is tight, maybe 5k max.',
    'Right now cake orders come in by phone.',
    'Switching would take our team about four months.',
    'Must have: import orders from the nightly export.',
    'Spent 15 years as an engineering leader.',
    // A word that is also a verb opening a noun phrase: "push notifications", "start date".
    'Push notifications get a 3% open rate, email 11%.',
    'Start date is 1 March.',
  ]) {
    assert.equal(isImperative(text), false, text);
  }
});
