// Whether the conversation ended in an agreement both sides confirmed, read from the turns around
// the participant's proposals: terms the participant states (a next step or a decision) that the
// persona's next turn accepts ("Deal.", "That's right.") are an agreement; terms the persona
// proposes that the participant merely accepts ("sure, that's fine") are one the participant did
// not shape. Documented in docs/analysis.md ("Offline evaluator").

import type { SentenceActs } from './acts.ts';
import { normalizeQuotes, type ParticipantSentence, sortTurns } from './text.ts';
import type { TranscriptTurn } from './types.ts';

export interface AgreementEvidence {
  /** Participant sentences stating terms the persona then accepted. */
  confirmed: ParticipantSentence[];
  /** Participant sentences stating terms the persona did not (yet) accept. */
  stated: ParticipantSentence[];
  /** Participant sentences accepting terms the persona proposed. */
  accepted: ParticipantSentence[];
}

/** A turn opening with assent. */
const ASSENT =
  /^(yes|yeah|yep|sure|ok|okay|fine|deal|agreed|perfect|great|done|that works|works for me|sounds good|that'?s (right|fine|fair|a deal|great)|i think that'?s (probably )?fine|alright|welcome aboard|i'?ll hold you to that)\b/;
/** A persona turn proposing terms: a figure or an offer to do something. */
const PROPOSAL = /\d|\b(i'?ll|we'?ll|i can|we can|how does that sound|is that a yes|then\?)\b/;

const opensWithAssent = (text: string) => ASSENT.test(normalizeQuotes(text).trim().toLowerCase());

export function readAgreement(acts: SentenceActs[], turns: TranscriptTurn[]): AgreementEvidence {
  const sorted = sortTurns(turns).filter((t) => t.message.trim().length > 0);
  // The persona turns just before and just after each participant turn.
  const around = new Map<number, { before: string; after: string }>();
  let userTurn = -1;
  sorted.forEach((turn, i) => {
    if (turn.speaker !== 'user') return;
    userTurn++;
    const prev = sorted[i - 1]?.speaker === 'agent' ? sorted[i - 1].message : '';
    const next = sorted[i + 1]?.speaker === 'agent' ? sorted[i + 1].message : '';
    around.set(userTurn, { before: prev, after: next });
  });
  const evidence: AgreementEvidence = { confirmed: [], stated: [], accepted: [] };
  const firstOfTurn = new Set<number>();
  for (const { sentence, acts: done } of acts) {
    const context = around.get(sentence.turn) ?? { before: '', after: '' };
    if (done.has('nextStep') || done.has('decision')) {
      (opensWithAssent(context.after) ? evidence.confirmed : evidence.stated).push(sentence);
    }
    if (!firstOfTurn.has(sentence.turn)) {
      firstOfTurn.add(sentence.turn);
      const proposed = PROPOSAL.test(normalizeQuotes(context.before).toLowerCase());
      if (proposed && opensWithAssent(sentence.text)) evidence.accepted.push(sentence);
    }
  }
  return evidence;
}
