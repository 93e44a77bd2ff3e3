// A deterministic 30-minute interview transcript for bench/analysis: 30 exchanges of one persona
// question and one participant answer of about 100 words (≈ 3,000 participant words, the pace of a
// real half-hour call), with fillers, hedges, repetitions and concrete details for the analytics.
import type { TranscriptTurn } from '../../server/src/platform/analyses/engine/types.ts';

const QUESTIONS = [
  'Could you start by telling me about your background?',
  'Tell me about a hard technical problem you solved recently.',
  'How did you decide between the options you had?',
  'How do you handle incidents in production?',
  'What would you change about your current system?',
  'How do you work with product managers on priorities?',
];

const SENTENCES = [
  'So I have worked on payment systems for about eight years, mostly in Go and PostgreSQL.',
  'Um, the checkout API had a p99 latency of 900 milliseconds during peak traffic.',
  'I traced it to lock contention on the orders table because every request updated a shared counter.',
  'We moved the counter into Redis and batched the writes, which cut latency to 120 milliseconds.',
  'I think the trade-off was consistency versus latency, and I guess we accepted some drift there.',
  'For example, a lost increment only skews a dashboard, so it was kind of acceptable for us.',
  'Basically the payments stayed in PostgreSQL with strict transactions.',
  'I wrote the decision down in a design doc so the team could review the scaling assumptions.',
  'In one incident a bad migration locked a large table for eight minutes.',
  'We rolled back within ten minutes, and afterwards I added a migration linter.',
  'That reduced failed deploys from five a month to one, which saved the team a lot of time.',
  'I mean, you know, the the hardest part was getting everyone to agree on the rollout plan.',
  'Maybe I would split the billing service, because the billing service owns too many tables.',
  'I usually ask product managers how they measure success before we commit to a date.',
  'Like, we just try to keep the billing service small and well tested.',
  'How does your team decide what goes into a sprint?',
];

/** A small seeded generator, so every run benches the same words. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

export const BENCH_DURATION_SECONDS = 30 * 60;

export function thirtyMinuteTranscript(seed = 42): TranscriptTurn[] {
  const random = prng(seed);
  const turns: TranscriptTurn[] = [];
  const exchanges = 30;
  const slot = BENCH_DURATION_SECONDS / exchanges;
  for (let i = 0; i < exchanges; i += 1) {
    const start = Math.round(i * slot);
    turns.push({ speaker: 'agent', message: QUESTIONS[i % QUESTIONS.length]!, startSeconds: start });
    const answer: string[] = [];
    let words = 0;
    while (words < 100) {
      const sentence = SENTENCES[Math.floor(random() * SENTENCES.length)]!;
      answer.push(sentence);
      words += sentence.split(/\s+/).length;
    }
    turns.push({ speaker: 'user', message: answer.join(' '), startSeconds: start + 6 });
  }
  return turns;
}

/** One sentence row per sentence, as the live engine stores a transcript. */
export function sentenceRows(turns: TranscriptTurn[]) {
  let sequence = 0;
  return turns.flatMap((turn) =>
    (turn.message.match(/[^.!?]+[.!?]+(\s|$)/g) ?? [turn.message]).map((text, index) => ({
      speaker: turn.speaker,
      message: text.trim(),
      start_ms: Math.round(turn.startSeconds * 1000) + index * 4000,
      sequence_number: ++sequence,
    })),
  );
}
