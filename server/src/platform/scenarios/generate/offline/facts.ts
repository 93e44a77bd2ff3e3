// Fact extraction: what the rules find in the description and the uploaded document (role,
// company, seniority, skills, requirements, responsibilities) and the kind of session it asks for.
// It matches patterns and the vocabulary; it does not understand the text.
import type { ScenarioType } from '../../tables.ts';
import type { GenerationInput } from '../schema.ts';
import { findTopic, situationOf } from './brief.ts';
import { findCompany, findRole } from './names.ts';
import { clean, itemsUnder, REQUIREMENT_HEADING, RESPONSIBILITY_HEADING, sections } from './sections.ts';
import { escapeRegExp, unique } from './text.ts';
import { GENERIC_SKILLS, SKILLS } from './vocabulary.ts';

export { findCounterpart } from './brief.ts';

/** What the rules found in the text; exposed for tests and for the LLM prompt's context. */
export interface TextFacts {
  role: string | null;
  company: string | null;
  seniority: 'junior' | 'mid' | 'senior' | 'leadership' | null;
  yearsOfExperience: number | null;
  skills: string[];
  requirements: string[];
  responsibilities: string[];
  /** From a résumé: the candidate's own experience items, which the interviewer can ask about. */
  experience: string[];
  /** From a free-text brief: its sentences about the situation, background for the persona. */
  situation: string[];
  documentKind: 'job_description' | 'resume' | 'notes';
  type: ScenarioType;
  topic: string | null;
}

/** A skill word used as something else: "we're hiring", "#hiring", "A/B testing" already found. */
const NOT_A_SKILL: Record<string, RegExp> = {
  hiring: /(?:\b(?:is|are|re|now|currently|we|we're|we’re)\s+|#)hiring\b/gi,
  recruiting: /(?:\b(?:is|are|re|now|currently)\s+|#)recruiting\b/gi,
};

function findSkills(text: string): string[] {
  const found: { skill: string; index: number }[] = [];
  for (const skill of SKILLS) {
    const haystack = NOT_A_SKILL[skill] ? text.replace(NOT_A_SKILL[skill], ' ') : text;
    // "Go" and "R" are common words or letters: only count them in a list-like context.
    const pattern =
      skill === 'Go' || skill === 'R'
        ? new RegExp(
            `(?:^|[,(/]\\s*|\\b(?:in|with|and)\\s+)${escapeRegExp(skill)}(?=\\s*[,)/]|\\s+(?:and|or)\\b)`,
            'm',
          )
        : new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(skill)}(?![A-Za-z0-9])`, skill.length <= 3 ? '' : 'i');
    const match = pattern.exec(haystack);
    if (match) found.push({ skill: skill === 'Golang' ? 'Go' : skill, index: match.index });
  }
  // "testing" inside "A/B testing" is the same mention, not a second skill.
  const partOfAnother = (skill: string) =>
    found.some(
      (other) =>
        other.skill !== skill &&
        new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(skill)}(?![A-Za-z0-9])`, 'i').test(other.skill),
    );
  const generic = (skill: string) => GENERIC_SKILLS.has(skill.toLowerCase());
  return unique(
    found
      .filter((entry) => !partOfAnother(entry.skill))
      .sort((a, b) => Number(generic(a.skill)) - Number(generic(b.skill)) || a.index - b.index)
      .map((entry) => entry.skill),
  ).slice(0, 12);
}

function findYears(text: string): number | null {
  const match = /(\d{1,2})\s*\+?\s*(?:-\s*\d{1,2}\s*)?(?:years?|yrs?)\b/i.exec(text);
  return match ? Number(match[1]) : null;
}

/**
 * Seniority from the title first. The text around it names other people ("your interview is
 * with our Head of Sales") and uses "lead" as a verb, so it only counts when there is no title,
 * or when it says "senior" or "junior" outright.
 */
function findSeniority(text: string, role: string | null, years: number | null): TextFacts['seniority'] {
  const lead = text.slice(0, 600);
  if (/\b(?:vp|vice president|director|head of|chief|cto|ceo|cfo|coo)\b/i.test(role ?? lead))
    return 'leadership';
  if (/\b(?:senior|sr\.?|staff|principal|lead)\b/i.test(role ?? lead) || /\bsenior\b/i.test(lead))
    return 'senior';
  const junior = /\b(?:junior|jr\.?|entry[- ]level|graduate|intern(?:ship)?|trainee|apprentice)\b/i;
  if (junior.test(role ?? '') || junior.test(lead)) return 'junior';
  if (years !== null) return years >= 5 ? 'senior' : years >= 2 ? 'mid' : 'junior';
  if (/\bmanager\b/i.test(role ?? '')) return 'senior';
  return role ? 'mid' : null;
}
function documentKind(text: string): TextFacts['documentKind'] {
  const resume =
    /\b(?:curriculum vitae|résumé|resume|work experience|professional experience|education|employment history)\b/i.test(
      text,
    ) && !/\b(?:we are|we're|you will|you'll|your role|apply|responsibilities)\b/i.test(text);
  if (resume) return 'resume';
  // One word is not enough ("requirements gathering" is a brief): an ad has two of these.
  const signals = text.match(
    /\b(?:responsibilities|requirements|qualifications|we are looking|we're looking|we are hiring|we're hiring|you will|you'll|apply|job description|benefits)\b/gi,
  );
  if (new Set(signals?.map((signal) => signal.toLowerCase())).size >= 2) return 'job_description';
  return 'notes';
}

function detectType(text: string, kind: TextFacts['documentKind'], role: string | null): ScenarioType {
  const lower = text.toLowerCase();
  if (/\bbrainstorm|ideation|generate ideas|new ideas\b/.test(lower)) return 'brainstorm';
  if (/\binterview|hiring|candidate|recruit|job description|apply for\b/.test(lower) || kind !== 'notes')
    return 'interview';
  if (
    /\b(?:sales|sell|customer|client|prospect|discovery call|demo|negotiat|pitch|objection|deal|renewal|upsell|complain|angry|difficult conversation|stakeholder)\w*/.test(
      lower,
    )
  ) {
    return 'roleplay';
  }
  if (
    /\b(?:coach|practice|improve|train|learn|feedback|skill|presentation|public speaking|upskill)\w*/.test(
      lower,
    )
  ) {
    return 'upskill';
  }
  return role ? 'interview' : 'roleplay';
}

/** Sentences that say what the job holder will do, for an ad without a responsibilities list. */
function dutiesInProse(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n/)
    .map(clean)
    .filter((sentence) =>
      /^(?:you(?:'ll|’ll| will)|in this role,? you(?:'ll|’ll| will))\s+\w/i.test(sentence),
    )
    .map((sentence) => sentence.replace(/^(?:in this role,?\s+)?you(?:'ll|’ll| will)\s+/i, ''))
    .filter((sentence) => sentence.length >= 12 && sentence.length <= 220)
    .slice(0, 4);
}

function requirementsInProse(text: string): string[] {
  return unique(
    text
      .split(/(?<=[.!?])\s+|\n/)
      .map(clean)
      .filter((s) =>
        /\b(?:must|required|requirement|experience (?:with|in)|proficien|familiar(?:ity)? with|knowledge of|ability to)\b/i.test(
          s,
        ),
      )
      .filter((s) => s.length >= 12 && s.length <= 200),
  ).slice(0, 6);
}

export function readFacts(input: GenerationInput): TextFacts {
  const combined = [input.userInput, input.document ?? ''].filter(Boolean).join('\n\n');
  const kind = input.document ? documentKind(input.document) : documentKind(input.userInput);
  // A résumé describes the candidate: the role and company to interview for are in the request,
  // and the résumé's own titles, employers and experience are what the interviewer asks about.
  const resume = input.document !== null && kind === 'resume';
  const posting = resume ? input.userInput : combined;
  const parts = sections(posting);
  const role = resume
    ? (findRole(input.userInput) ?? findRole(input.document!))
    : (findRole(input.document ? `${input.document}\n${input.userInput}` : input.userInput) ??
      findRole(combined));
  const years = findYears(posting);
  const requirements = itemsUnder(parts, REQUIREMENT_HEADING, 8);
  const responsibilities = itemsUnder(parts, RESPONSIBILITY_HEADING, 8);
  const topic = findTopic(input.userInput);
  return {
    role,
    company: findCompany(input.userInput) ?? (input.document && !resume ? findCompany(input.document) : null),
    seniority: findSeniority(posting, role, years),
    yearsOfExperience: years,
    skills: findSkills(combined),
    requirements: requirements.length ? requirements : requirementsInProse(posting),
    responsibilities: responsibilities.length ? responsibilities : dutiesInProse(posting),
    experience: resume
      ? itemsUnder(sections(input.document!), /experience|employment|projects|achievements/i, 6)
      : [],
    situation: kind === 'notes' ? situationOf(input.userInput, topic) : [],
    documentKind: kind,
    type: detectType(combined, kind, role),
    topic,
  };
}
