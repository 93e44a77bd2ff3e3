import assert from 'node:assert/strict';
import { test } from 'node:test';
import { computeSpeechAnalytics, participantSpeakingSeconds } from './speech-analytics.ts';
import type { TranscriptTurn } from './types.ts';

// Participant sentences (S1–S10) and what each contributes, worked out by hand:
//   S1 "Um, so we built a billing service."                 fillers um, so; opening "um"
//   S2 "Like, the the billing service handled invoices, you know?"
//                                                           fillers like, you know; stumble "the the"
//   S3 "I think it was, like, basically fine."              weak "i think"; fillers like, basically
//   S4 "Well, the billing service was slow."                filler well
//   S5 "We maybe just added caching."                       weak maybe, just
//   S6 "Uh, we added caching to the billing service, right?" fillers uh, right?
//   S7 "I think, I mean, it kind of worked."                weak "i think", "kind of"; filler "i mean"
//   S8 "We used Postgres."  S9 "We used Redis too."         opening "we used" twice
//   S10 "Actually I guess I I would pick Postgres again."   filler actually; weak "i guess"; stumble "i i"
// "the billing service" is said 3 times (S2, S4, S6); the fourth "billing service" (S1) is alone.
// Turn words 23, 28, 16 = 67. Speaking time: turn 1 spans 20 s (< 23 words at 1 s/word) → 20 s;
// turn 2 spans 30 s → capped at 28 s; turn 3 spans 25 s → capped at 16 s. 64 s = 1.07 minutes.
const TURNS: TranscriptTurn[] = [
  { speaker: 'agent', message: 'Welcome. Tell me about your last project.', startSeconds: 0 },
  {
    speaker: 'user',
    message:
      'Um, so we built a billing service. Like, the the billing service handled invoices, you know? I think it was, like, basically fine.',
    startSeconds: 5,
  },
  { speaker: 'agent', message: 'What was hard about it?', startSeconds: 25 },
  {
    speaker: 'user',
    message:
      'Well, the billing service was slow. We maybe just added caching. Uh, we added caching to the billing service, right? I think, I mean, it kind of worked.',
    startSeconds: 30,
  },
  { speaker: 'agent', message: 'What kind of database did you use? Um, just curious.', startSeconds: 60 },
  {
    speaker: 'user',
    message: 'We used Postgres. We used Redis too. Actually I guess I I would pick Postgres again.',
    startSeconds: 65,
  },
  { speaker: 'agent', message: 'Thanks.', startSeconds: 90 },
];

test('word count and speaking minutes', () => {
  const result = computeSpeechAnalytics(TURNS, 120);
  assert.equal(result.participant_word_count, 67);
  assert.equal(participantSpeakingSeconds(TURNS, 120), 64);
  assert.equal(result.participant_speaking_minutes, 1.07);
});

test('filler words: exact counts, rate and examples', () => {
  const { filler_words } = computeSpeechAnalytics(TURNS, 120);
  assert.equal(filler_words.total, 11);
  assert.equal(filler_words.per_minute, 10.28); // 11 / 1.07
  assert.deepEqual(filler_words.items, [
    { text: 'like', count: 2 },
    { text: 'actually', count: 1 },
    { text: 'basically', count: 1 },
    { text: 'i mean', count: 1 },
    { text: 'right?', count: 1 },
    { text: 'so', count: 1 },
    { text: 'uh', count: 1 },
    { text: 'um', count: 1 },
    { text: 'well', count: 1 },
    { text: 'you know', count: 1 },
  ]);
  assert.deepEqual(filler_words.examples, [
    'Like, the the billing service handled invoices, you know?',
    'Actually I guess I I would pick Postgres again.',
    'I think it was, like, basically fine.',
  ]);
});

test('weak words: exact counts, rate and examples', () => {
  const { weak_words } = computeSpeechAnalytics(TURNS, 120);
  assert.equal(weak_words.total, 6);
  assert.equal(weak_words.per_minute, 5.61); // 6 / 1.07
  assert.deepEqual(weak_words.items, [
    { text: 'i think', count: 2 },
    { text: 'i guess', count: 1 },
    { text: 'just', count: 1 },
    { text: 'kind of', count: 1 },
    { text: 'maybe', count: 1 },
  ]);
  assert.deepEqual(weak_words.examples, [
    'I think it was, like, basically fine.',
    'Actually I guess I I would pick Postgres again.',
    'We maybe just added caching.',
  ]);
});

test('repetitions: stumbles and phrases said three or more times', () => {
  const { repetitions } = computeSpeechAnalytics(TURNS, 120);
  assert.equal(repetitions.total, 5);
  assert.equal(repetitions.per_minute, 4.67); // 5 / 1.07
  assert.deepEqual(repetitions.items, [
    { text: 'the billing service', count: 3 },
    { text: 'i i', count: 1 },
    { text: 'the the', count: 1 },
  ]);
  assert.deepEqual(repetitions.examples, [
    'Like, the the billing service handled invoices, you know?',
    'Actually I guess I I would pick Postgres again.',
    'Well, the billing service was slow.',
  ]);
});

test('sentence starters: openings said at least twice', () => {
  const { sentence_starters } = computeSpeechAnalytics(TURNS, 120);
  assert.equal(sentence_starters.total, 4);
  assert.equal(sentence_starters.per_minute, 3.74); // 4 / 1.07
  assert.deepEqual(sentence_starters.items, [
    { text: 'i think', count: 2 },
    { text: 'we used', count: 2 },
  ]);
  assert.deepEqual(sentence_starters.examples, [
    'I think it was, like, basically fine.',
    'We used Postgres.',
    'I think, I mean, it kind of worked.',
  ]);
});

test('agent turns are never analysed', () => {
  const result = computeSpeechAnalytics(
    [{ speaker: 'agent', message: 'Um, so, like, I think maybe the the answer, you know?', startSeconds: 0 }],
    60,
  );
  assert.equal(result.participant_word_count, 0);
  assert.equal(result.participant_speaking_minutes, 0);
  for (const metric of [
    result.filler_words,
    result.weak_words,
    result.repetitions,
    result.sentence_starters,
  ]) {
    assert.deepEqual(metric, { total: 0, per_minute: 0, items: [], examples: [] });
  }
});

test('context rules: like, you know, I mean, kind of, so and well', () => {
  const turns: TranscriptTurn[] = [
    {
      speaker: 'user',
      message:
        'I like Go. Do you know Rust? I mean it. What kind of cache is it? It is a different sort of problem. We did well. It was so fast. Also, so, we shipped it.',
      startSeconds: 0,
    },
  ];
  const result = computeSpeechAnalytics(turns, 60);
  assert.equal(result.filler_words.total, 0);
  assert.equal(result.weak_words.total, 0);
});

test('"the the the" is one stumble and "I was, I was" is a two-word stumble', () => {
  const result = computeSpeechAnalytics(
    [
      {
        speaker: 'user',
        message: 'So the the the plan, I was, I was going to very very carefully ship it.',
        startSeconds: 0,
      },
    ],
    30,
  );
  assert.deepEqual(result.repetitions.items, [
    { text: 'i was i was', count: 1 },
    { text: 'the the', count: 1 },
  ]);
});

test('stop-word-only phrases are not repetitions', () => {
  const result = computeSpeechAnalytics(
    [{ speaker: 'user', message: 'It is what it is. It is fine. It is late. It is done.', startSeconds: 0 }],
    30,
  );
  assert.deepEqual(result.repetitions.items, []);
});

test('per-minute rates never divide by zero and fall back to meeting minutes', () => {
  const empty = computeSpeechAnalytics([], 0);
  assert.equal(empty.filler_words.per_minute, 0);
  assert.equal(empty.participant_speaking_minutes, 0);

  // One word spoken in 0.2 s rounds to 0.00 minutes: the rate uses the 2-minute meeting instead.
  const turns: TranscriptTurn[] = [
    { speaker: 'user', message: 'Um.', startSeconds: 10 },
    { speaker: 'agent', message: 'Go on.', startSeconds: 10.2 },
  ];
  const result = computeSpeechAnalytics(turns, 120);
  assert.equal(result.participant_speaking_minutes, 0);
  assert.equal(result.filler_words.total, 1);
  assert.equal(result.filler_words.per_minute, 0.5);
});

test('a last turn without a known end is timed at 150 words per minute', () => {
  const turns: TranscriptTurn[] = [{ speaker: 'user', message: 'one two three four five', startSeconds: 50 }];
  assert.equal(participantSpeakingSeconds(turns, 0), 2);
});
