// What a goal asks the participant to find out, read from its text, and how much of it they did.
// A goal that enumerates facts to collect ("the budget, the deadline and the systems it must work
// with"; "date of service, provider, insurance plan and member ID") is met no better than the share
// of those facts the participant asked for or drew out: five good questions about something else
// do not capture a budget. Items are the nouns of the enumeration (compromise); an item whose head
// names a kind of fact (a date, an amount, a person, an identifier, a system) is also covered by a
// question asking for that kind ("when…", "who did you see") or an answer carrying one ("March 3rd",
// "Doctor Chen", "thirty thousand euros"). Documented in docs/analysis.md ("Offline evaluator").

import nlp from 'compromise';
import type { SentenceActs } from './acts.ts';
import { contentStems } from './conversation-evidence.ts';
import { normalizeQuotes, type ParticipantSentence, sortTurns } from './text.ts';
import type { GoalDefinition, TranscriptTurn } from './types.ts';

export type FactKind = 'date' | 'money' | 'person' | 'id' | 'system';

export interface GoalItem {
  text: string;
  stems: Set<string>;
  kind: FactKind | null;
}

/** Head nouns that name a kind of fact. */
const KIND_OF_HEAD: Readonly<Record<string, FactKind>> = Object.fromEntries(
  (
    [
      ['date', 'date deadline timeline timing schedule'],
      ['money', 'budget price cost costs fee fees salary amount spend'],
      ['person', 'provider doctor contact owner name stakeholder decision-maker'],
      ['id', 'id number code reference account'],
      ['system', 'system systems tool tools software platform integration integrations'],
    ] as const
  ).flatMap(([kind, heads]) => heads.split(' ').map((head) => [head, kind])),
);

/** Words of a question that ask for a kind of fact. */
const KIND_CUES: Readonly<Record<FactKind, RegExp>> = {
  // "when" as a question word, not as a conjunction ("what happens when a patient cancels").
  date: /(^|\band )when\b|\bwhen (do|does|did|is|are|will|would|can|should|must)\b|\b(what date|which date|the day|that day|deadline|timeline|how soon|by when|how long)\b/,
  money: /\b(how much|budget|cost|price|spend|set aside|afford|pay)\b/,
  person: /\b(who|whom|which doctor|whose)\b/,
  id: /\b(number|id|code|reference)\b/,
  system: /\b(systems?|tools?|software|plug into|integrate|work with|sync)\b/,
};

/** What an answer carries, by kind (compromise tags; an identifier is a token mixing digits). */
function answerKinds(text: string): Set<FactKind> {
  const doc = nlp(text);
  const kinds = new Set<FactKind>();
  // A date, not a duration ("three hours a day" says how long, not when).
  if (doc.match('#Date').not('#Duration').found) kinds.add('date');
  if (doc.has('#Money') || doc.has('#Currency')) kinds.add('money');
  if (doc.has('#Person') || /\b(dr|doctor)\.? [A-Z]/.test(text)) kinds.add('person');
  if (/\b[A-Za-z]*\d[\w-]*\d\b/.test(text) && /\d{3,}|-\d/.test(text)) kinds.add('id');
  if (doc.has('(#Organization|#ProperNoun)') && !doc.has('#Person')) kinds.add('system');
  return kinds;
}

/**
 * The items of the enumerations in a goal's name and description: after a colon, or a run of
 * three or more parts joined by commas and "and"/"or". Each item keeps the stems of its nouns.
 */
export function goalItems(goal: GoalDefinition): GoalItem[] {
  const items: GoalItem[] = [];
  for (const part of [goal.name, goal.description ?? '']) {
    for (const clause of normalizeQuotes(part).split(/[.;()]/)) {
      const colon = clause.indexOf(':');
      const list = colon >= 0 ? clause.slice(colon + 1) : clause;
      const pieces = list.split(/,\s*|\s+(?:and|or)\s+/).filter((p) => p.trim().length > 0);
      if (pieces.length < (colon >= 0 ? 2 : 3)) continue;
      for (const piece of pieces) {
        const nouns = nlp(piece).nouns().not('#Pronoun');
        if (!nouns.found) continue;
        const text = nouns.first().text('normal');
        const head = nouns.first().match('#Noun+').first().terms().last().text('normal');
        const first = nouns.first().terms().not('(#Determiner|#Adjective)').first().text('normal');
        const kind = KIND_OF_HEAD[head] ?? KIND_OF_HEAD[first] ?? null;
        items.push({ text, stems: contentStems(nouns.text()), kind });
      }
    }
  }
  return items;
}

/** A goal whose items are mostly facts of a kind is a list of facts to collect. */
export function factsToCollect(goal: GoalDefinition): GoalItem[] {
  const items = goalItems(goal);
  const typed = items.filter((i) => i.kind !== null).length;
  return items.length >= 2 && typed * 2 >= items.length ? items : [];
}

export interface Coverage {
  covered: GoalItem[];
  /** The participant's asking sentences that covered an item. */
  sentences: ParticipantSentence[];
}

/**
 * The items the participant asked for (by name or by kind) or drew out (the persona's answer to
 * their question names it or carries a fact of its kind).
 */
export function coverage(items: GoalItem[], acts: SentenceActs[], turns: TranscriptTurn[]): Coverage {
  const answers = answersToParticipantTurns(turns);
  const asking = acts.filter((a) => a.acts.has('question') || a.acts.has('openQuestion'));
  const covered = new Set<GoalItem>();
  const sentences = new Set<ParticipantSentence>();
  for (const { sentence } of asking) {
    const lower = normalizeQuotes(sentence.text).toLowerCase();
    const asked = contentStems(sentence.text);
    const answer = answers.get(sentence.turn) ?? '';
    const answered = contentStems(answer);
    const carried = answerKinds(answer);
    for (const item of items) {
      const named = [...item.stems].some((s) => asked.has(s) || answered.has(s));
      const byKind = item.kind !== null && (KIND_CUES[item.kind].test(lower) || carried.has(item.kind));
      if (named || byKind) {
        covered.add(item);
        sentences.add(sentence);
      }
    }
  }
  return { covered: items.filter((i) => covered.has(i)), sentences: [...sentences] };
}

/** The persona's reply to each participant turn (by the participant turn's index). */
function answersToParticipantTurns(turns: TranscriptTurn[]): Map<number, string> {
  const sorted = sortTurns(turns).filter((t) => t.message.trim().length > 0);
  const answers = new Map<number, string>();
  let userTurn = -1;
  sorted.forEach((turn, i) => {
    if (turn.speaker !== 'user') return;
    userTurn++;
    if (sorted[i + 1]?.speaker === 'agent') answers.set(userTurn, sorted[i + 1].message);
  });
  return answers;
}
