import assert from 'node:assert/strict';
import { test } from 'node:test';
import { computeSpeechAnalytics } from './speech-analytics.ts';
import type { InputMode, TranscriptTurn } from './types.ts';

// Speech rates are per minute of speaking time, and typed text has no speaking time.

const agent = (startSeconds: number, message: string): TranscriptTurn => ({
  speaker: 'agent',
  message,
  startSeconds,
});
let nextId = 1;
const user = (
  startSeconds: number,
  message: string,
  input: InputMode | null,
  endSeconds: number | null = null,
): TranscriptTurn => ({
  speaker: 'user',
  message,
  startSeconds,
  sentences: [{ id: nextId++, message, startSeconds, endSeconds, input }],
});

// 10 words, 2 fillers ("um", "basically") each.
const A = 'Um, we basically moved the counter into Redis last year.';
const B = 'Um, the team basically owns the whole checkout path now.';

test('voice: rates divide spoken fillers by the reported speaking time', () => {
  const turns = [agent(0, 'Hi.'), user(5, A, 'voice', 11), agent(60, 'And?'), user(70, B, 'voice', 76)];
  const a = computeSpeechAnalytics(turns, 300);
  assert.equal(a.participant_input, 'voice');
  assert.equal(a.participant_speaking_minutes, 0.2, '6 s + 6 s of speech, not the 300 s meeting');
  assert.equal(a.filler_words.total, 4);
  assert.equal(a.filler_words.per_minute, 20);
});

test('a reported span longer than the slowest pace is capped (silence is not speech)', () => {
  const a = computeSpeechAnalytics([user(0, A, 'voice', 120)], 200);
  assert.equal(a.participant_speaking_minutes, round2(10 / 60), '10 words at most 1 s each');
});

test('typed only: fillers are counted, but no speech rate is reported', () => {
  const turns = [agent(0, 'Hi.'), user(5, A, 'typed', 40), agent(60, 'And?'), user(70, B, 'typed', 90)];
  const a = computeSpeechAnalytics(turns, 300);
  assert.equal(a.participant_input, 'typed');
  assert.equal(a.participant_speaking_minutes, 0);
  assert.equal(a.filler_words.total, 4);
  for (const metric of [a.filler_words, a.weak_words, a.repetitions, a.sentence_starters]) {
    assert.equal(metric.per_minute, null);
  }
});

test('mixed: the rate counts spoken sentences over spoken time; typed ones only add to the total', () => {
  const turns = [agent(0, 'Hi.'), user(5, A, 'voice', 11), agent(60, 'And?'), user(70, B, 'typed', 90)];
  const a = computeSpeechAnalytics(turns, 300);
  assert.equal(a.participant_input, 'mixed');
  assert.equal(a.participant_speaking_minutes, 0.1);
  assert.equal(a.filler_words.total, 4);
  assert.equal(a.filler_words.per_minute, 20, '2 spoken fillers in 0.1 min');
});

test('unknown input (older transcripts) is timed as speech, as before', () => {
  const a = computeSpeechAnalytics([agent(0, 'Hi.'), user(5, A, null), agent(20, 'Ok.')], 60);
  assert.equal(a.participant_input, 'voice');
  assert.equal(a.participant_speaking_minutes, round2(10 / 60));
  assert.equal(a.filler_words.per_minute, round2(2 / round2(10 / 60)));
});

test('no participant speech: input none and rates 0', () => {
  const a = computeSpeechAnalytics([agent(0, 'Hello?')], 60);
  assert.equal(a.participant_input, 'none');
  assert.equal(a.filler_words.per_minute, 0);
});

function round2(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}
