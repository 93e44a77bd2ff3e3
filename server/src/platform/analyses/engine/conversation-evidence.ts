// What the participant did in the conversation, as the offline evaluator scores it: the questions
// they asked, the facts the persona revealed in answer, their playback of those facts, the next
// steps they committed to, and the quality of their answers to the persona's questions. Words
// alone earn nothing here: a keyword list is neither a question nor an answer. Rules documented in
// docs/analysis.md ("Offline evaluator"); keep the two in step.

import nlp from 'compromise';
import { detailKinds, isQuestion } from './evidence.ts';
import { isStopWord, type ParticipantSentence, sortTurns, speakerSentences, stem, tokenize } from './text.ts';
import type { TranscriptTurn } from './types.ts';

/** Who leads the conversation: the participant asks (discovery) or the persona asks (interview). */
export type Lead = 'participant' | 'persona';

/** Interviews and coaching are led by the persona; role-plays and brainstorms by the participant. */
export function leadOfScenarioType(type: string | null | undefined): Lead | null {
  if (type === 'interview' || type === 'upskill') return 'persona';
  if (type === 'roleplay' || type === 'brainstorm') return 'participant';
  return null;
}

const DEFLECTION =
  /\b(i don't (know|have)|i do not (know|have)|not sure|no idea|can't (say|speak|share|comment)|won't speculate|(need|have) to check|outside what|what would you like|what do you (want|mean)|what are you asking|could you (rephrase|clarify))\b/;
const PLAYBACK_MARKER =
  /\b(play(ing)? (it |that |this )?back|what i('ve| have)? heard|to (sum up|summari[sz]e|recap)|in summary|let me (check|confirm|make sure|recap|summari[sz]e)|if i understand|so you('re| are) saying|what i'm hearing|did i get (that|this|it|everything) right|have i got (that|this|it) right|correct me if|in my own words|read (that|it) back|let me check i've got|anything i've missed|did i miss)\b/;
const COMMITMENT =
  /\b((i|we)('ll| will| can| could| would like to|'d like to| am going to|'m going to| are going to)( also)? (send|share|set up|book|schedule|draft|write|follow|get back|come back|prepare|circulate|organi[sz]e|arrange|put together|check|confirm|talk|meet|review|call|email)|let's (schedule|book|set up|meet|agree|plan|follow)|(the )?next steps? (is|are|would be|will be)|as (a )?next steps?|by (monday|tuesday|wednesday|thursday|friday|tomorrow|next week|the end of))\b/g;
/**
 * Pushback a persona voices: a refusal or negation (compromise's #Negative: not, n't, never, no),
 * a contrast ("…, but"), or a challenge ("why should I", "feels like you're squeezing us").
 */
const CONCERN =
  /\b(but|why|still|too (much|high|expensive)|competitor|cheaper|feels like|worried|concerned|doubt)\b/;
function voicesConcern(text: string): boolean {
  return nlp(text).has('#Negative') || CONCERN.test(text.toLowerCase());
}

const OPEN_WORDS = new Set([
  'what',
  'how',
  'why',
  'who',
  'which',
  'where',
  'when',
  'describe',
  'explain',
  'tell',
  'walk',
]);
const SEQUENCE_MARKERS = new Set(
  'first firstly second secondly third then next finally afterwards after overall because so result trade-off whereas however but instead'.split(
    ' ',
  ),
);

export interface QuestionEvidence {
  sentence: ParticipantSentence;
  /** 1 for an open question (what, how, why, tell me …), 0.6 for a closed one. */
  weight: number;
}

export interface FactEvidence {
  sentence: ParticipantSentence;
  /** The participant question sentences it answered. */
  askedBy: ParticipantSentence[];
}

export interface AnswerEvidence {
  sentences: ParticipantSentence[];
  words: number;
  specifics: number;
  structure: number;
  length: number;
  naturalness: number;
  /** 0–1: the mean of specifics, structure and length, scaled by naturalness. */
  quality: number;
}

export interface ConversationEvidence {
  questions: QuestionEvidence[];
  facts: FactEvidence[];
  /** The best playback turn (score 0–1) and its sentences; score 0 when there is none. */
  playback: { score: number; restated: number; sentences: ParticipantSentence[] };
  nextSteps: ParticipantSentence[];
  /** Commitments made in `nextSteps` (a sentence may hold several). */
  commitments: number;
  answers: AnswerEvidence[];
  /** Participant turns (by index) that reply to a persona turn voicing a concern or pushing back. */
  concernReplies: Set<number>;
  /** Participant sentences written as language (not keyword lists). */
  naturalSentences: ParticipantSentence[];
  personaQuestions: number;
}

/** Stems of the content words of a text: not stop words, at least 3 letters. */
export function contentStems(text: string): Set<string> {
  return new Set(
    tokenize(text)
      .filter((t) => t.norm.length >= 3 && !isStopWord(t.norm))
      .map((t) => stem(t.norm)),
  );
}

/**
 * How much a sentence reads as language rather than a keyword list: the share of function words
 * (the, of, we, is …), 0 at 10% or less, 1 at 25% or more. Sentences under 6 words count as 1.
 */
export function naturalness(sentence: ParticipantSentence): number {
  const words = sentence.tokens.length;
  if (words < 6) return 1;
  const share = sentence.tokens.filter((t) => isStopWord(t.norm)).length / words;
  return Math.min(1, Math.max(0, (share - 0.1) / 0.15));
}

/**
 * `asking`: indices of the participant sentences that ask (the act reader's questions, which
 * include unpunctuated and indirect ones); facts elicited are read from the persona's answers to
 * them. Without it, `isQuestion` decides.
 */
export function gatherConversation(
  turns: TranscriptTurn[],
  asking?: ReadonlySet<number>,
): ConversationEvidence {
  const sorted = sortTurns(turns).filter((t) => t.message.trim().length > 0);
  const userSentences = speakerSentences(sorted, 'user');
  const agentSentences = speakerSentences(sorted, 'agent');
  const natural = userSentences.filter((s) => naturalness(s) >= 0.5);
  const naturalSet = new Set(natural);

  // Walk the turns in order, keeping each speaker's turn number.
  const sequence: Array<{ speaker: 'user' | 'agent'; sentences: ParticipantSentence[] }> = [];
  let userTurn = 0;
  let agentTurn = 0;
  for (const turn of sorted) {
    const index = turn.speaker === 'user' ? userTurn++ : agentTurn++;
    const pool = turn.speaker === 'user' ? userSentences : agentSentences;
    sequence.push({ speaker: turn.speaker, sentences: pool.filter((s) => s.turn === index) });
  }

  const questions: QuestionEvidence[] = [];
  const facts: FactEvidence[] = [];
  const asked: Set<string>[] = [];
  const revealed = new Set<string>();
  const answers: AnswerEvidence[] = [];
  let personaQuestions = 0;
  let playback: ConversationEvidence['playback'] = { score: 0, restated: 0, sentences: [] };
  const concernReplies = new Set<number>();
  sequence.forEach((entry, position) => {
    const before = sequence[position - 1];
    if (entry.speaker === 'user' && before?.speaker === 'agent' && entry.sentences.length > 0) {
      if (before.sentences.some((s) => voicesConcern(s.text))) concernReplies.add(entry.sentences[0].turn);
    }
    if (entry.speaker === 'agent') {
      personaQuestions += entry.sentences.filter(isQuestion).length;
      return;
    }
    // Questions: natural, not a repeat of an earlier one.
    const own = entry.sentences.filter((s) => naturalSet.has(s) && isQuestion(s));
    for (const sentence of own) {
      const stems = contentStems(sentence.text);
      if (asked.some((earlier) => overlap(stems, earlier) >= 0.8)) continue;
      asked.push(stems);
      const open = sentence.tokens.some((t) => OPEN_WORDS.has(t.norm));
      questions.push({ sentence, weight: open ? 1 : 0.6 });
    }
    // Playback: the turn restates facts the persona revealed before it.
    const restatedStems = new Set<string>();
    for (const sentence of entry.sentences.filter((s) => naturalSet.has(s))) {
      for (const s of contentStems(sentence.text)) if (revealed.has(s)) restatedStems.add(s);
    }
    const marker = entry.sentences.some((s) => PLAYBACK_MARKER.test(s.text.toLowerCase()));
    const playbackScore = Math.min(1, restatedStems.size / 6) * (marker ? 1 : 0.25);
    if (playbackScore > playback.score) {
      playback = {
        score: playbackScore,
        restated: restatedStems.size,
        sentences: entry.sentences.filter((s) => naturalSet.has(s) && !isQuestion(s)),
      };
    }
    // Facts: what the persona's next turn revealed in answer to these questions.
    const asks = asking ? entry.sentences.filter((s) => asking.has(s.index)) : own;
    const reply = sequence[position + 1];
    if (asks.length > 0 && reply?.speaker === 'agent') {
      const questionStems = new Set(asks.flatMap((s) => [...contentStems(s.text)]));
      let taken = 0;
      for (const sentence of reply.sentences) {
        if (taken === 3) break;
        if (DEFLECTION.test(sentence.text.toLowerCase().replace(/’/g, "'"))) continue;
        const fresh = [...contentStems(sentence.text)].filter((s) => !questionStems.has(s));
        const novel = fresh.filter((s) => !revealed.has(s));
        const hasNumber = detailKinds(sentence).includes('number');
        if ((fresh.length < 3 && !hasNumber) || novel.length < 2) continue;
        for (const s of fresh) revealed.add(s);
        facts.push({ sentence, askedBy: asks });
        taken++;
      }
    }
    // Answers: a participant turn right after a persona question.
    const prompt = sequence[position - 1];
    if (prompt?.speaker === 'agent' && prompt.sentences.some(isQuestion)) {
      answers.push(measureAnswer(entry.sentences));
    }
  });

  let commitments = 0;
  const nextSteps = natural.filter((s) => {
    const found = [...s.text.toLowerCase().replace(/’/g, "'").matchAll(COMMITMENT)].length;
    commitments += found;
    return found > 0;
  });
  return {
    questions,
    facts,
    playback,
    nextSteps,
    commitments,
    answers,
    concernReplies,
    naturalSentences: natural,
    personaQuestions,
  };
}

/** Specifics, structure and length of one answer, scaled by how natural its sentences read. */
function measureAnswer(sentences: ParticipantSentence[]): AnswerEvidence {
  const words = sentences.reduce((sum, s) => sum + s.tokens.length, 0);
  const kinds = new Set(sentences.flatMap(detailKinds));
  const detailSentences = sentences.filter((s) => detailKinds(s).length > 0).length;
  const specifics = 0.5 * Math.min(1, kinds.size / 2) + 0.5 * Math.min(1, detailSentences / 2);
  const markers = new Set(
    sentences.flatMap((s) => s.tokens.map((t) => t.norm)).filter((w) => SEQUENCE_MARKERS.has(w)),
  ).size;
  const structure = 0.5 * (sentences.length >= 2 ? 1 : 0) + 0.5 * Math.min(1, markers / 2);
  const length =
    words < 25 ? Math.max(0, (words - 5) / 20) : words <= 180 ? 1 : Math.max(0.4, 1 - (words - 180) / 300);
  const natural =
    words === 0 ? 0 : sentences.reduce((sum, s) => sum + naturalness(s) * s.tokens.length, 0) / words;
  const quality = ((specifics + structure + length) / 3) * natural;
  return { sentences, words, specifics, structure, length, naturalness: natural, quality };
}

/** Share of the smaller set found in the larger one (1 when either is empty). */
function overlap(a: Set<string>, b: Set<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return 1;
  let shared = 0;
  for (const s of small) if (large.has(s)) shared++;
  return shared / small.size;
}
