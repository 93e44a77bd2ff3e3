// Fact extraction: what the rules find in the description and the uploaded document (role,
// company, seniority, skills, requirements, responsibilities) and the kind of session it asks for.
// It matches patterns and the vocabulary; it does not understand the text.
import type { Demeanor, ScenarioType } from '../../tables.ts';
import type { GenerationInput } from '../schema.ts';
import { clean, itemsUnder, REQUIREMENT_HEADING, RESPONSIBILITY_HEADING, sections } from './sections.ts';
import { escapeRegExp, titleCase, unique } from './text.ts';
import {
  COMPANY_STOP,
  GENERIC_SKILLS,
  LEADING_NOISE,
  MOODS,
  ROLE_NOUNS,
  ROLE_RE,
  ROLE_WORD,
  SKILLS,
} from './vocabulary.ts';

/** What the rules found in the text; exposed for tests and for the LLM prompt's context. */
export interface TextFacts {
  role: string | null;
  company: string | null;
  seniority: 'junior' | 'mid' | 'senior' | 'leadership' | null;
  yearsOfExperience: number | null;
  skills: string[];
  requirements: string[];
  responsibilities: string[];
  documentKind: 'job_description' | 'resume' | 'notes';
  type: ScenarioType;
  topic: string | null;
}

function findSkills(text: string): string[] {
  const found: { skill: string; index: number }[] = [];
  for (const skill of SKILLS) {
    // "Go" and "R" are common words or letters: only count them in a list-like context.
    const pattern =
      skill === 'Go' || skill === 'R'
        ? new RegExp(
            `(?:^|[,(/]\\s*|\\b(?:in|with|and)\\s+)${escapeRegExp(skill)}(?=\\s*[,)/]|\\s+(?:and|or)\\b)`,
            'm',
          )
        : new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(skill)}(?![A-Za-z0-9])`, skill.length <= 3 ? '' : 'i');
    const match = pattern.exec(text);
    if (match) found.push({ skill: skill === 'Golang' ? 'Go' : skill, index: match.index });
  }
  const generic = (skill: string) => GENERIC_SKILLS.has(skill.toLowerCase());
  return unique(
    found
      .sort((a, b) => Number(generic(a.skill)) - Number(generic(b.skill)) || a.index - b.index)
      .map((entry) => entry.skill),
  ).slice(0, 12);
}

function findRole(text: string): string | null {
  const labelled = /(?:^|\n)\s*(?:job\s*title|position|role|title)\s*[:\-–]\s*([^\n]{3,80})/i.exec(text);
  if (labelled)
    return titleCase(
      clean(labelled[1]!)
        .replace(/\s*\(.*?\)\s*/g, ' ')
        .trim(),
    );
  const candidates = [
    /\b(?:hiring|recruiting|looking for|seeking|searching for)\s+(?:an?|our|the)?\s*([^\n.,;:]{3,80})/i,
    /\b(?:interview(?:ing)?|practice|prepare|preparing)\s+(?:for|as)\s+(?:an?|the|my)?\s*([^\n.,;:]{3,80})/i,
    /\b(?:role|position|job)\s+(?:of|as)\s+(?:an?|the)?\s*([^\n.,;:]{3,80})/i,
    /\bas\s+(?:an?|the)\s+([^\n.,;:]{3,80})/i,
    /^\s*#\s+([^\n]{3,80})/m,
    /^([^\n]{3,80})$/m,
  ];
  for (const pattern of candidates) {
    const match = pattern.exec(text);
    if (!match) continue;
    const role = ROLE_RE.exec(match[1]!);
    if (role) {
      let title = role[0]!.trim();
      while (LEADING_NOISE.test(title)) title = title.replace(LEADING_NOISE, '');
      if (title && title.split(/\s+/).length <= 6) return titleCase(title);
    }
  }
  const anywhere = ROLE_RE.exec(text);
  if (!anywhere) return null;
  let title = anywhere[0]!.trim();
  while (LEADING_NOISE.test(title)) title = title.replace(LEADING_NOISE, '');
  return title && title.split(/\s+/).length <= 5 ? titleCase(title) : null;
}

function findCompany(text: string): string | null {
  const patterns = [
    /(?:^|\n)\s*(?:company|employer|organi[sz]ation)\s*[:\-–]\s*([^\n]{2,60})/i,
    /\b[Aa]bout\s+([A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3})\s*(?:\n|:)/,
    /\bjoin\s+(?:us at\s+)?([A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3})/,
    /\b([A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3})\s+is\s+(?:hiring|looking|seeking|growing)/,
    /\b(?:at|with|for)\s+([A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3})(?:[,.;:!]|\s+(?:as|in|where|who|which|and|to|for)\b|\s*$)/m,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    const name = match?.[1] ? clean(match[1]) : '';
    if (!name || COMPANY_STOP.test(name) || ROLE_RE.test(name)) continue;
    if (SKILLS.some((skill) => skill.toLowerCase() === name.toLowerCase())) continue;
    return name;
  }
  return null;
}

function findYears(text: string): number | null {
  const match = /(\d{1,2})\s*\+?\s*(?:-\s*\d{1,2}\s*)?(?:years?|yrs?)\b/i.exec(text);
  return match ? Number(match[1]) : null;
}

function findSeniority(text: string, role: string | null, years: number | null): TextFacts['seniority'] {
  const haystack = `${role ?? ''} ${text.slice(0, 600)}`;
  if (/\b(?:vp|vice president|director|head of|chief|cto|ceo|cfo|coo)\b/i.test(haystack)) return 'leadership';
  if (/\b(?:senior|sr\.?|staff|principal|lead)\b/i.test(haystack)) return 'senior';
  if (/\b(?:junior|jr\.?|entry[- ]level|graduate|intern(?:ship)?|trainee|apprentice)\b/i.test(haystack))
    return 'junior';
  if (years !== null) return years >= 7 ? 'senior' : years >= 3 ? 'mid' : 'junior';
  if (/\bmanager\b/i.test(role ?? '')) return 'senior';
  return role ? 'mid' : null;
}

function documentKind(text: string): TextFacts['documentKind'] {
  const resume =
    /\b(?:curriculum vitae|résumé|resume|work experience|professional experience|education|employment history)\b/i.test(
      text,
    ) && !/\b(?:we are|we're|you will|you'll|your role|apply|responsibilities)\b/i.test(text);
  if (resume) return 'resume';
  if (
    /\b(?:responsibilities|requirements|qualifications|we are looking|we're looking|you will|you'll|apply|job description|benefits)\b/i.test(
      text,
    )
  ) {
    return 'job_description';
  }
  return 'notes';
}

function detectType(text: string, kind: TextFacts['documentKind'], role: string | null): ScenarioType {
  const lower = text.toLowerCase();
  if (/\bbrainstorm|ideation|generate ideas|new ideas\b/.test(lower)) return 'brainstorm';
  if (/\binterview|hiring|candidate|recruit|job description|apply for\b/.test(lower) || kind !== 'notes')
    return 'interview';
  if (
    /\b(?:sales|sell|customer|client|prospect|negotiat|pitch|objection|deal|renewal|upsell|complain|angry|difficult conversation|stakeholder)\w*/.test(
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

function findTopic(userInput: string): string | null {
  const first = userInput
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.!?])\s/)[0];
  if (!first) return null;
  const topic = first
    .replace(
      /^(?:i want to|i'd like to|i would like to|help me|let me|please|create|make|build|generate)\s+/i,
      '',
    )
    .replace(/^(?:a|an)\s+(?:scenario|session|role[- ]?play|simulation)\s+(?:to|for|where|in which)\s+/i, '')
    .replace(/[.!?]+$/, '');
  return topic.length >= 4 ? topic.slice(0, 140) : null;
}

/** "… to a sceptical CFO at a retail company" → who the persona plays in a role-play. */
export function findCounterpart(
  text: string,
): { title: string; demeanor: Demeanor | null; organisation: string | null } | null {
  const match = new RegExp(
    `\\b(?:to|with|for|convince|persuade|tell|ask)\\s+(?:an?|the|my|our|their)\\s+((?:[a-z-]+\\s+){0,2}?)((?:${ROLE_WORD}\\s+){0,2}?(?:${ROLE_NOUNS}|customer|client|buyer|prospect|boss|colleague|employee|team member|stakeholder|landlord|tenant|patient|parent|student|investor|supplier|vendor|partner))\\b(?:\\s+(?:at|of|from|in)\\s+(?:an?\\s+|the\\s+)?([^,.;!?\\n]{3,50}))?`,
    'i',
  ).exec(text);
  if (!match) return null;
  let adjectives = match[1]!.trim();
  let title = match[2]!.trim();
  const describing =
    /^(?:very\s+|really\s+)?(?:sceptical|skeptical|doubtful|critical|demanding|tough|difficult|angry|upset|frustrated|annoyed|irate|busy|impatient|direct|friendly|warm|nice|curious|interested|potential|prospective|existing|new|important|key|large|small)\s+/i;
  for (let m = describing.exec(title); m; m = describing.exec(title)) {
    adjectives = `${adjectives} ${m[0]}`.trim();
    title = title.slice(m[0].length);
  }
  const demeanor = MOODS.find(([pattern]) => pattern.test(adjectives))?.[1] ?? null;
  const organisation = match[3]?.trim().replace(/\s+(?:who|that|which|because|about)\b.*$/i, '') ?? null;
  return {
    title: /^[a-z]/.test(title) && !/[A-Z]/.test(title) ? titleCase(title) : title,
    demeanor,
    organisation,
  };
}

export function readFacts(input: GenerationInput): TextFacts {
  const combined = [input.userInput, input.document ?? ''].filter(Boolean).join('\n\n');
  const parts = sections(combined);
  const role =
    findRole(input.document ? `${input.document}\n${input.userInput}` : input.userInput) ??
    findRole(combined);
  const years = findYears(combined);
  const kind = input.document ? documentKind(input.document) : documentKind(input.userInput);
  let requirements = itemsUnder(parts, REQUIREMENT_HEADING, 8);
  if (requirements.length === 0) {
    requirements = unique(
      combined
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
  return {
    role,
    company: findCompany(combined),
    seniority: findSeniority(combined, role, years),
    yearsOfExperience: years,
    skills: findSkills(combined),
    requirements,
    responsibilities: itemsUnder(parts, RESPONSIBILITY_HEADING, 8),
    documentKind: kind,
    type: detectType(combined, kind, role),
    topic: findTopic(input.userInput),
  };
}
