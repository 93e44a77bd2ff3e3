// How well the participant's acts meet one act family (0–1), the participant sentences that show it,
// and what to do when it falls short. Counts saturate: four open questions, two dated next steps,
// three reasons are full marks; blaming and shooting ideas down take marks away.
// Documented in docs/analysis.md ("Offline evaluator").

import type { Act, SentenceActs } from './acts.ts';
import type { AgreementEvidence } from './agreement.ts';
import type { ConversationEvidence, Lead } from './conversation-evidence.ts';
import type { Family } from './goal-acts.ts';
import { clamp01, type ParticipantSentence } from './text.ts';

export interface FamilyScore {
  family: Family;
  value: number;
  /** Participant sentences the value rests on, strongest first. */
  evidence: ParticipantSentence[];
  /** What was counted, for the long description. */
  counted: string;
}

const strength = (acts: SentenceActs[], act: Act) => acts.reduce((sum, a) => sum + (a.acts.get(act) ?? 0), 0);
const withAct = (acts: SentenceActs[], ...wanted: Act[]) =>
  acts
    .filter((a) => wanted.some((act) => a.acts.has(act)))
    .sort((x, y) => best(y, wanted) - best(x, wanted) || x.sentence.index - y.sentence.index)
    .map((a) => a.sentence);
const best = (a: SentenceActs, wanted: Act[]) => Math.max(...wanted.map((act) => a.acts.get(act) ?? 0));

export function scoreFamily(
  family: Family,
  acts: SentenceActs[],
  c: ConversationEvidence,
  lead: Lead,
  agreement?: AgreementEvidence,
): FamilyScore {
  const count = (act: Act) => acts.filter((a) => a.acts.has(act)).length;
  const statements = acts.filter((a) => !a.acts.has('question') && !a.acts.has('openQuestion'));
  const blame = count('blame');
  switch (family) {
    case 'questions': {
      const asked = strength(acts, 'openQuestion') + 0.6 * strength(acts, 'question');
      const full = lead === 'participant' ? 4 : 2;
      return {
        family,
        value: clamp01(asked / full),
        evidence: withAct(acts, 'openQuestion', 'question'),
        counted: `${count('openQuestion') + count('question')} questions (${count('openQuestion')} open)`,
      };
    }
    case 'facts': {
      const askers = new Set(c.facts.flatMap((f) => f.askedBy.map((s) => s.index)));
      return {
        family,
        value: clamp01(c.facts.length / 4),
        evidence: acts.filter((a) => askers.has(a.sentence.index)).map((a) => a.sentence),
        counted: `${c.facts.length} facts revealed in answer to their questions`,
      };
    }
    case 'playback':
      return {
        family,
        value: c.playback.score,
        evidence: c.playback.sentences,
        counted: `${c.playback.restated} revealed facts restated`,
      };
    case 'nextSteps':
      return {
        family,
        value: clamp01(strength(acts, 'nextStep') / 2),
        evidence: withAct(acts, 'nextStep'),
        counted: `${count('nextStep')} next steps (${acts.filter((a) => a.acts.get('nextStep') === 1).length} with a time)`,
      };
    case 'justification': {
      // A reason counts; a reason resting on a number or a date counts more. Bare figures do not.
      const reasons =
        count('reason') +
        0.5 * statements.filter((a) => a.acts.has('reason') && a.acts.has('specific')).length;
      return {
        family,
        value: clamp01(reasons / 3 - 0.3 * blame),
        evidence: withAct(statements, 'reason', 'specific'),
        counted: `${count('reason')} reasons given`,
      };
    }
    case 'specifics':
      return {
        family,
        value: clamp01(statements.filter((a) => a.acts.has('specific')).length / 3),
        evidence: withAct(statements, 'specific'),
        counted: `${statements.filter((a) => a.acts.has('specific')).length} sentences with specifics`,
      };
    case 'empathy': {
      const strong = acts.filter((a) => a.acts.get('empathy') === 1).length;
      const gestures = acts.some((a) => a.acts.has('acknowledge') || a.acts.get('empathy') === 0.25)
        ? 0.25
        : 0;
      // Blame and brushing off take back what empathy earned, but not the gestures themselves.
      const offset = 0.3 * (blame + count('reject'));
      return {
        family,
        value: Math.max(gestures / 2, clamp01(strong / 1.5 + gestures - offset)),
        evidence: withAct(acts, 'empathy', 'acknowledge'),
        counted: `${count('empathy')} empathetic lines, ${count('acknowledge')} acknowledgements`,
      };
    }
    case 'ownership': {
      // Saying "that's on us" and acting on it ("I've assigned an engineer") both own the problem;
      // blaming others takes back the words, not the action.
      const said = clamp01(count('ownership') / 2 - 0.2 * blame);
      const acted = Math.min(0.5, 0.25 * strength(acts, 'fix'));
      return {
        family,
        value: clamp01(said + acted),
        evidence: withAct(acts, 'ownership', 'fix'),
        counted: `${count('ownership')} lines taking responsibility, ${blame} blaming others`,
      };
    }
    case 'objection': {
      // Read in the replies to the persona's pushback (all turns when it voiced none): the concern
      // acknowledged, probed, and answered; an answer resting on a number or terms is a full
      // answer, a bare reason half of one.
      const replies =
        c.concernReplies.size > 0 ? acts.filter((a) => c.concernReplies.has(a.sentence.turn)) : acts;
      const has = (...wanted: Act[]) => replies.some((a) => wanted.some((act) => a.acts.has(act)));
      const acknowledged = has('acknowledge', 'empathy') ? 0.4 : 0;
      const probed = has('openQuestion', 'question') ? 0.3 : 0;
      const grounded = replies.some(
        (a) => (a.acts.has('reason') || a.acts.has('idea')) && a.acts.has('specific'),
      );
      const answered = grounded ? 0.3 : has('reason', 'idea') ? 0.15 : 0;
      // Defensiveness anywhere in the call undoes the handling, not only right after the pushback.
      const defensive = blame + count('reject');
      return {
        family,
        value: clamp01(acknowledged + probed + answered - 0.3 * defensive),
        evidence: withAct(replies, 'acknowledge', 'empathy', 'reason', 'openQuestion'),
        counted: `concern ${acknowledged ? '' : 'not '}acknowledged, ${probed ? '' : 'not '}probed, ${grounded ? 'answered with a number or terms' : answered ? 'answered with a bare reason' : 'not answered with a reason or option'}${defensive > 0 ? `, ${defensive} defensive lines` : ''}`,
      };
    }
    case 'resolution': {
      const steps = clamp01(strength(acts, 'nextStep') / 2);
      return {
        family,
        value: clamp01(0.6 * Math.max(0, ...acts.map((a) => a.acts.get('fix') ?? 0)) + 0.4 * steps),
        evidence: withAct(acts, 'fix', 'nextStep'),
        counted: `${count('fix')} fixing actions, ${count('nextStep')} next steps`,
      };
    }
    case 'ideas':
      return {
        family,
        value: clamp01(count('idea') / 4),
        evidence: withAct(acts, 'idea'),
        counted: `${count('idea')} ideas proposed`,
      };
    case 'building':
      return {
        family,
        value: clamp01(count('build') - 0.5 * count('reject')),
        evidence: withAct(acts, 'build'),
        counted: `${count('build')} partner ideas built on, ${count('reject')} shot down`,
      };
    case 'decision': {
      const decided = count('decision') > 0 ? 0.5 : 0;
      const owned = strength(acts, 'nextStep') >= 1 ? 0.25 : 0;
      const measured = acts.some((a) => a.acts.has('decision') && a.acts.has('specific')) ? 0.25 : 0;
      return {
        family,
        value: decided + owned + measured,
        evidence: withAct(acts, 'decision', 'nextStep'),
        counted: `${count('decision')} decisions, ${count('nextStep')} next steps`,
      };
    }
    case 'agreement': {
      // Terms the participant stated and the persona confirmed are an agreement; stated terms
      // left unconfirmed half of one; merely accepting the persona's terms a little.
      const { confirmed = [], stated = [], accepted = [] } = agreement ?? {};
      const grounded = confirmed.some((s) => acts.some((a) => a.sentence === s && a.acts.has('specific')));
      return {
        family,
        value:
          confirmed.length > 0
            ? grounded
              ? 1
              : 0.7
            : stated.length > 0
              ? 0.5
              : accepted.length > 0
                ? 0.2
                : 0,
        evidence: [...confirmed, ...stated, ...accepted],
        counted: `${confirmed.length} terms stated and confirmed, ${stated.length} unconfirmed, ${accepted.length} of the other side's accepted`,
      };
    }
    case 'answers': {
      const quality =
        c.answers.length > 0 ? c.answers.reduce((s, a) => s + a.quality, 0) / c.answers.length : 0;
      return {
        family,
        value: quality,
        evidence: withAct(statements, 'specific', 'reason'),
        counted: `${c.answers.filter((a) => a.quality >= 0.5).length} of ${c.answers.length} answers specific and well formed`,
      };
    }
  }
}

/** A concrete tip for a family that falls short. */
export const FAMILY_TIPS: Readonly<Record<Family, string>> = {
  questions: 'Ask more open questions of your own (what, how, tell me about…) and follow up on the answers.',
  facts: 'Follow each answer with a question that draws out a specific fact: a number, a name, a date.',
  playback: 'Play back what you heard in your own words ("So what I heard is…") and check it is right.',
  nextSteps:
    'Close with a next step that has an owner, an action and a time ("I\'ll send the summary by Friday").',
  justification:
    'Give the reason behind your position, with a number or a concrete benefit ("because…", "what you get for it is…").',
  specifics: 'Name specifics: what happened, when, with a number or a direct quote.',
  empathy:
    'Name the other person\'s feeling back to them ("that sounds really frustrating") before moving on.',
  ownership: 'Take responsibility for the company ("that one\'s on us") instead of pointing at someone else.',
  objection: 'Acknowledge the concern, ask what is behind it, then answer it with a reason or an option.',
  resolution: 'Say what you are doing to fix it, who does it and by when.',
  ideas: 'Put several distinct ideas on the table before judging any of them.',
  building: 'Pick up your partner\'s idea and extend it ("yes, and…") instead of dismissing it.',
  decision: 'Narrow down to one option to try first, with how you will measure it and who runs it.',
  agreement:
    'Close by stating the terms in full (what, who, by when) and ask the other side to confirm them.',
  answers: 'Answer each question with the point, a specific example with a number, and the result.',
};

/** What each family is called in feedback. */
export const FAMILY_LABELS: Readonly<Record<Family, string>> = {
  questions: 'questions asked',
  facts: 'facts elicited',
  playback: 'playback',
  nextSteps: 'next steps',
  justification: 'reasons given',
  specifics: 'specifics',
  empathy: 'empathy',
  ownership: 'ownership',
  objection: 'objection handling',
  resolution: 'resolution',
  ideas: 'ideas generated',
  building: 'building on ideas',
  decision: 'decision',
  agreement: 'agreement',
  answers: 'answer quality',
};
