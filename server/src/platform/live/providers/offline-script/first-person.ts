// Scenario text speaks *to* the persona ("You run three depots"; "Runs operations for…"); the
// persona speaks as itself ("I run three depots"; "our dispatchers"). These rewrites turn one into
// the other for the facts the persona says aloud.
import nlp from 'compromise';
import { escapeRegExp } from './text.ts';

/** Nouns that name a group of the persona's organisation: "dispatchers" is said as "our dispatchers". */
const GROUP_NOUNS =
  'dispatchers drivers customers clients staff employees engineers nurses doctors patients agents users managers accountants technicians depots stores shops clinics branches warehouses developers salespeople reps students teachers members volunteers teams partners suppliers competitors';
const GROUP = new Set(GROUP_NOUNS.split(' '));
/** After "your", these are the organisation's ("our team"); anything else is personal ("my nephew"). */
const SHARED = new Set([
  ...GROUP,
  ...'team company business organisation organization group department stack product products app platform budget clinics customers data systems system process processes competitor main current biggest'.split(
    ' ',
  ),
]);
/** "you" is the subject ("I") at the start of a clause; anywhere else it is the object ("me"). */
const SUBJECT_AFTER =
  /^(?:|do|does|did|would|could|can|will|should|shall|are|were|have|has|had|what|how|why|who|whether|than|and|but|so|or|that|because|when|if|where|while|which|who|since|until|unless|before|after|once|now|today|then|also|still)$/i;

/** "…one line you will not cross": before a modal or an auxiliary, "you" is the subject. */
const SUBJECT_BEFORE =
  /^(?:will|would|can|could|should|must|might|may|shall|do|did|don't|didn't|won't|can't|have|had|are|were|need|want|know|think|always|never|also|still|really|just)$/i;

function swapWord(word: string, previous: string, next: string): string {
  const lower = word.toLowerCase();
  const cap = (s: string) => (word[0] === word[0].toUpperCase() ? s[0].toUpperCase() + s.slice(1) : s);
  switch (lower) {
    case 'you':
      return SUBJECT_AFTER.test(previous) || SUBJECT_BEFORE.test(next) ? cap('I') : 'me';
    case 'your':
      return cap(SHARED.has(next.toLowerCase()) ? 'our' : 'my');
    case 'yours':
      return cap('mine');
    case 'yourself':
      return cap('myself');
    case "you're":
      return cap("I'm");
    case "you've":
      return cap("I've");
    case "you'd":
      return cap("I'd");
    case "you'll":
      return cap("I'll");
    default:
      return word;
  }
}

/** "You run operations; your team asked the participant's team" → "I run operations; our team asked your team". */
export function secondToFirstPerson(text: string): string {
  const tokens = text.replace(/[’‘]/g, "'").split(/(\s+)/);
  // A word ending a clause (",", ";", ":") counts as the start of a new one.
  const wordAt = (i: number) =>
    /[,;:]$/.test(tokens[i] ?? '') ? '' : (tokens[i] ?? '').replace(/[^\p{L}'-]/gu, '');
  const out = tokens.map((token, i) => {
    const match = /^([^\p{L}]*)([\p{L}']+)(.*)$/u.exec(token);
    if (!match) return token;
    const [, lead, word, rest] = match;
    // "(you pay…": an opening bracket or quote starts a clause too.
    const previous = /[("“]/.test(lead) ? '' : wordAt(i - 2);
    return lead + swapWord(word, previous, wordAt(i + 2)) + rest;
  });
  return out
    .join('')
    .replace(/\b([Aa])re I\b/g, (_, a: string) => `${a === 'A' ? 'Am' : 'am'} I`)
    .replace(/\b([Ww])ere I\b/g, (_, w: string) => `${w === 'W' ? 'Was' : 'was'} I`)
    .replace(/\bI are\b/g, 'I am')
    .replace(/\bI am\b/g, "I'm")
    .replace(/\bI were\b/g, 'I was')
    .replace(/\bI aren't\b/g, "I'm not");
}

const SECOND_PERSON_VERB: Record<string, string> = {
  is: 'are',
  was: 'were',
  has: 'have',
  does: 'do',
  "doesn't": "don't",
  "isn't": "aren't",
  "wasn't": "weren't",
};

/** "the participant's café" → "your café": the persona speaks to the participant. */
export function participantToYou(text: string): string {
  return text
    .replace(/\bthe (?:participant|candidate|rep|user|learner)'s\b/gi, 'your')
    .replace(/\bthe (?:participant|candidate|rep|user|learner)\b/gi, 'you')
    .replace(
      /\b([Yy]ou) (is|was|has|does|doesn't|isn't|wasn't)\b/g,
      (_, you: string, verb: string) => `${you} ${SECOND_PERSON_VERB[verb]}`,
    );
}

/** Words after which a bare group noun is the organisation's own: "helps dispatchers" → "helps our dispatchers". */
const CLAIM_AFTER =
  /^(?:today|currently|now|usually|help|helps|helping|to|for|with|from|by|and|or|but|that|when|where|because|if|so|let|lets|tell|also|only|most|all)$/i;

/** "Today dispatchers plan" → "Today our dispatchers plan": the persona's own people. */
export function claimGroups(text: string): string {
  const tokens = text.split(/(\s+)/);
  return tokens
    .map((token, i) => {
      const match = /^(\p{L}+)(.*)$/u.exec(token);
      if (!match || !GROUP.has(match[1].toLowerCase())) return token;
      const before = tokens[i - 2] ?? '';
      const previous = before.replace(/[^\p{L}'-]/gu, '');
      const claim = i === 0 || /[,;:(]$/.test(before) || CLAIM_AFTER.test(previous);
      if (!claim) return token;
      return i === 0 ? `Our ${match[1].toLowerCase()}${match[2]}` : `our ${token}`;
    })
    .join('');
}

const THIRD_PERSON_VERB: Record<string, string> = { is: "I'm", has: 'I have', does: 'I do', was: 'I was' };

/** A persona background written about the persona ("Runs operations…", "A former trainer…") said as "I". */
export function backgroundToFirstPerson(sentence: string, personaName: string): string {
  const first = personaName.split(/\s+/)[0] ?? '';
  let text = sentence.trim();
  const named = new RegExp(`^(?:${escapeRegExp(personaName)}|${escapeRegExp(first)}|she|he|they)\\s+`, 'i');
  if (named.test(text)) text = text.replace(named, '');
  const [word, ...rest] = text.split(' ');
  const lower = (word ?? '').toLowerCase();
  if (THIRD_PERSON_VERB[lower]) return `${THIRD_PERSON_VERB[lower]} ${rest.join(' ')}`;
  if (/^(?:a|an|the)$/.test(lower)) return `I'm ${lower} ${rest.join(' ')}`;
  if (/^\p{L}\p{Ll}+s$/u.test(word ?? '') && !/ss$/.test(word)) {
    const base = /(?:ches|shes|sses|xes|oes)$/.test(lower) ? lower.slice(0, -2) : lower.slice(0, -1);
    return `I ${base} ${rest.join(' ')}`;
  }
  return secondToFirstPerson(text);
}

const MODAL = /^(?:would|will|could|can|should|might|must)$/i;
/** Where a clause's own part ends: "Would stay if there's a branch" has no subject before "if". */
const SUBORDINATE = /\b(?:if|because|when|that|who|which|since|although|while|unless|until|so|but|and)\b/i;
/** "Annoyed because…", "Based in…", "Worried about…": a state said of the persona. */
const STATE_NEXT = /^(?:because|about|with|at|by|that|since|after|to|of|when|in|on|for|from)$/i;

type Tagged = { text: string; tags: string[] };

/** The subject a clause lacks, from its first word: "Been a member…" → "I've", "Annoyed…" → "I'm". */
function subjectFor(clause: string): string | null {
  // "Current volume: 1.2 million": a label, not a clause about the persona.
  if (/:/.test(clause.split(/\s+/).slice(0, 4).join(' '))) return null;
  const own = clause.split(SUBORDINATE)[0] ?? clause;
  const terms = (nlp(own).terms().json() as { terms: Tagged[] }[]).map((t) => t.terms[0]).filter(Boolean);
  const [first, second] = terms;
  if (!first) return null;
  // "Would stay if…": the modal and its verb are the predicate.
  if (MODAL.test(first.text)) return 'I';
  // "Parking is a nightmare", "Existing contract runs to June", "May is the busiest month": a finite
  // verb after the first word means the clause has its subject.
  const finite = (t: Tagged) =>
    t.tags.includes('Verb') &&
    (t.tags.includes('PresentTense') || t.tags.includes('PastTense') || t.tags.includes('Copula')) &&
    !t.tags.some((tag) => tag === 'Participle' || tag === 'Gerund');
  if (terms.slice(1).some(finite)) return null;
  const word = first.text.replace(/[^\p{L}']/gu, '');
  if (MODAL.test(word)) return 'I';
  if (/^been$/i.test(word)) return "I've";
  const alone = (nlp(word).terms().json()[0]?.terms?.[0]?.tags ?? []) as string[];
  const tags = first.tags.includes('Verb') ? first.tags : alone;
  const next =
    clause
      .split(/\s+/)[1]
      ?.toLowerCase()
      .replace(/[^\p{L}]/gu, '') ?? '';
  if (tags.includes('Gerund') && !(second?.tags ?? []).includes('Noun')) return "I'm";
  if ((tags.includes('Adjective') || /ed$/i.test(word)) && STATE_NEXT.test(next)) return "I'm";
  // "Replaced the valve", "Pays £42": an action of the persona's ("Lease ends…" opens with a noun).
  if (
    tags.includes('Verb') &&
    (tags.includes('PastTense') || (tags.includes('PresentTense') && /s$/i.test(word)))
  )
    return 'I';
  return null;
}

/** A verb said with "I": "pays" → "pay", "has" → "have", "studies" → "study", "is" → "am". */
function withI(verb: string): string {
  const lower = verb.toLowerCase();
  const irregular: Record<string, string> = { is: 'am', has: 'have', does: 'do', was: 'was', goes: 'go' };
  if (irregular[lower]) return irregular[lower];
  if (!/s$/.test(lower)) return lower;
  const base = nlp(lower).verbs().toInfinitive().text().trim();
  return base.length > 0 && !/\s/.test(base) ? base : lower;
}

/**
 * "Been a member 3 years, pays £42 a month, moving to Bristol next month." written about the persona,
 * said with its subject: "I've been a member 3 years, I pay £42 a month, I'm moving to Bristol next
 * month." Each comma clause that opens with a verb gets one; null when the sentence has its subject.
 */
export function withPersonaSubject(sentence: string): string | null {
  if (subjectFor(sentence.split(/,\s+/)[0] ?? sentence) === null) return null;
  return sentence
    .split(/,\s+/)
    .map((clause) => {
      const subject = subjectFor(clause);
      if (subject === null) return clause;
      const [word, ...rest] = clause.split(/\s+/);
      const verb = subject === 'I' && !MODAL.test(word) ? withI(word) : word.toLowerCase();
      // "I am" reads as "I'm" the way people say it.
      return subject === 'I' && verb === 'am'
        ? ["I'm", ...rest].join(' ')
        : [subject, verb, ...rest].join(' ');
    })
    .join(', ');
}
