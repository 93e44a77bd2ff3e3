// Reads a participant's turn in a persona-led call sentence by sentence: what answers the pending
// question, and what is said beside it (small talk, a dig at the session, "are you an AI?", a
// question to the persona), so an aside is answered in character and never taken as the answer.
import { asksIfReal } from './in-character.ts';
import { countWords, sentences } from './text.ts';

export type Social = 'reassure' | 'howAreYou' | 'greet' | 'remark';

const SOCIAL_RANK: readonly Social[] = ['reassure', 'howAreYou', 'greet', 'remark'];

export interface Reading {
  /** Asks whether the persona is an AI, a bot, a real person. */
  probe: boolean;
  social: Social | null;
  /** A dig at the questions, the session, the job or the persona. */
  rude: boolean;
  /** A question to the persona (other than a probe or small talk). */
  question: string | null;
  /** The words that answer the pending step; empty when the turn holds only asides. */
  answer: string;
}

const HOW_ARE_YOU =
  /\bbusy (?:morning|day|week|weekend|time)\b|\bhow(?:'s| has| is| was| did)\b[^?]{0,30}\b(?:started|going|treating you)\b[^?]{0,20}\?|\bhope you(?:'re| are)? (?:well|keeping|doing)\b|\bkeeping well\b|\bhow(?:'s| is| are|'re| have| has|'ve)? (?:(?:you|ya)(?=\s*(?:[?!.,]|$|doing|today|keeping|getting on|holding up|feeling|this (?:morning|week)))|your (?:day|week|morning|weekend|afternoon|evening)|things|life|it going|everything)\b|\bhow(?:'ve| have) you been\b|^(?:(?:hi|hey|hello),? \w+,? )?(?:(?:a )?(?:good|nice|great) (?:weekend|week|day|morning|holiday|break))\??$|\bhow was your (?:weekend|week|day|holiday|break)\b|\byou (?:doing|keeping) (?:ok|okay|well|alright)\b/i;
const GREET =
  /^(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening)|morning|afternoon)\b|\b(?:nice|good|great|lovely|pleased|glad) to (?:meet|see|talk to|speak (?:to|with)|be (?:here|back)) (?:you|again)?|\bthank(?:s| you)(?: \w+)?,? (?:so much |a lot )?for (?:this|having me|making (?:the )?time|the time|fitting me in|seeing me|meeting (?:me|with me)|taking the time|doing this)\b|\bhappy (?:monday|tuesday|wednesday|thursday|friday|weekend|new year|holidays)\b/i;
const REASSURE =
  /\bi(?:'m| am) (?:a (?:bit|little) |quite |so |really |very |pretty |kind of )?(?:nervous|anxious|stressed|worried|tired|exhausted|shattered|scared)\b/i;
const REMARK =
  /\b(?:weather|rain(?:y|ing)?|snow(?:y|ing)?|sunny|chilly|freezing|cold out|hot today|traffic|monday(?:s)? again)\b|,\s*(?:isn't it|aren't they|don't you think|innit|eh)\?$/i;
/** A brush-off that needs no target: "calm down, it's only a bill", "machines break, that's life". */
const BRUSH_OFF =
  /\bcalm down\b|\bit'?s only (?:a|an|one|money)\b|\bthat'?s life\b|\bget over it\b|\bdeal with it\b|\bnot my problem\b|\bpeople like you\b|\byou people\b|\bso what(?=\s*[?!.,]|\s*$)|\bgrow up\b|\bshould(?:'ve| have) (?:bought|read|known|checked|thought)\b|\bstop (?:complaining|moaning|whining)\b|\bnever see the (?:value|point)\b|\bhurry up\b|\bhaven'?t got all day\b|\bdon'?t have all day\b/i;
/** Negative words about the session; only counted with a target (this, these questions, you…). */
const DIG =
  /\b(?:pointless|waste of (?:my )?time|silly|stupid|dumb|rubbish|useless|boring|ridiculous|nonsense|generic|lame|a joke|lecture|(?:don'?t|do not) (?:really )?see the point|no point|what'?s the point|never (?:actually )?(?:do|listen|help|follow)|sucks?|terrible|awful|annoying|patronising|patronizing)\b/i;
const TARGET =
  /\b(?:this|these|that|you|your|questions?|interview|session|call|job|role|role-?play|exercise|lecture|meeting|it)\b/i;
/** Where a question to the persona starts, after "Wait,", "Sorry, quick question —", "Before I answer,". */
const LEAD_IN =
  /^(?:(?:wait|sorry|actually|so|and|but|ok(?:ay)?|oh|hmm+|um+|also|quick question|one question|out of interest|just curious|by the way|btw|before i answer|before we start|before we begin|unrelated|honestly|hang on|hold on|oh and|can i ask)\b[\s,:;.!—–-]*)+/i;
const INTERROGATIVE =
  /^(?:what|how|why|who|whom|whose|when|where|which|is|are|am|was|were|do|does|did|can|could|would|will|should|shall|have|has|had|may|might|any|anything|tell me|what about|how about|and)\b/i;
/** A guess said with a rising tone is an answer: "Um, something like 'we need to talk'?", "I'd say two?". */
const TENTATIVE =
  /^(?:(?:um+|uh+|erm+|hmm+|well|so|like),?\s+)*(?:something like|maybe|perhaps|probably|possibly|i guess|i think|i'?d say|i suppose|kind of|sort of|like|i|we|my|our)\b/i;

/** A tag that asks for agreement, not information: "It just goes, you know?" */
const TAG = /,?\s*(?:you know|right|yeah|no|eh|innit|isn't it|don't you think|you see)\?$/i;

function isQuestion(sentence: string): boolean {
  if (!sentence.trim().endsWith('?')) return false;
  const asked = sentence.replace(LEAD_IN, '');
  // "Be honest, is this automated?", "I mean, is the team remote?": a question after a preamble.
  const clauses = asked.split(/\s*[,;:—–]\s*|\s+-\s+/).filter((c) => c.length > 0);
  if (clauses.slice(1).some((c) => INTERROGATIVE.test(c.replace(LEAD_IN, '')) && !/^and\b/i.test(c)))
    return true;
  if (TENTATIVE.test(sentence.replace(/^[\s"“]+/, ''))) return false;
  if (TAG.test(asked) && !INTERROGATIVE.test(asked)) return false;
  // "The SLA is how many hours now?": a question word left where the answer would go.
  const inSitu = /\b(?:how (?:many|much|long|often|old|far)|what|which|when|where|who|why)\b/i.test(asked);
  return INTERROGATIVE.test(asked) || inSitu || countWords(asked) <= 4 || /\b(?:you|your)\b/i.test(asked);
}

export function readAsides(utterance: string): Reading {
  const text = utterance.replace(/[’‘]/g, "'").trim();
  const reading: Reading = { probe: false, social: null, rude: false, question: null, answer: '' };
  const answer: string[] = [];
  // "Good morning, what can I do for you?": the greeting and the question are two moves.
  const split = sentences(text).flatMap((sentence) => {
    const greeting =
      /^([^,?]{1,40}),\s*((?:what|how|who|when|where|why|which|can|could|would|is|are|do|does|did)\b.*\?)$/i.exec(
        sentence,
      );
    return greeting && GREET.test(greeting[1]) ? [greeting[1], greeting[2]] : [sentence];
  });
  for (const sentence of split) {
    if (asksIfReal(sentence)) {
      reading.probe = true;
      continue;
    }
    const words = countWords(sentence);
    // A long sentence with specifics is an answer even when it says "I'm tired of…" or "boring".
    const content = sentence.split(/\s+/).filter((w) => w.replace(/[^\p{L}]/gu, '').length >= 4).length;
    const aside = words <= 10 || (!/\d/.test(sentence) && words <= 16 && content < 6);
    const social: Social | null = !aside
      ? null
      : REASSURE.test(sentence)
        ? 'reassure'
        : HOW_ARE_YOU.test(sentence)
          ? 'howAreYou'
          : GREET.test(sentence)
            ? 'greet'
            : REMARK.test(sentence)
              ? 'remark'
              : null;
    if (social) {
      // "Hi Claire, thanks for this, I'm a bit nervous": the strongest social move answers it.
      if (reading.social === null || SOCIAL_RANK.indexOf(social) < SOCIAL_RANK.indexOf(reading.social))
        reading.social = social;
      continue;
    }
    // A brush-off is rude however long the sentence; a dig only in a short aside ("this is pointless").
    if ((words <= 16 && DIG.test(sentence) && TARGET.test(sentence)) || BRUSH_OFF.test(sentence)) {
      reading.rude = true;
      continue;
    }
    if (isQuestion(sentence)) {
      reading.question = reading.question ? `${reading.question} ${sentence}` : sentence;
      continue;
    }
    // "Just curious." / "Haha." after a probe or a greeting is not an answer.
    if (words <= 2 && (reading.probe || reading.social) && !/\d/.test(sentence)) continue;
    answer.push(sentence);
  }
  reading.answer = answer.join(' ').trim();
  return reading;
}
