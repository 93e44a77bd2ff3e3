// The rule-based scenario generator used when no LLM is configured. It reads the description (and
// an uploaded job description or résumé) for a role title, company, seniority, skills,
// requirements and responsibilities, decides the kind of session, and fills templates with what
// it found. It does not understand the text: it matches patterns and a skill vocabulary.
import { createHash } from 'node:crypto';
import type { Demeanor, Gender, ScenarioType } from '../tables.ts';
import type { GeneratedScenario } from './schema.ts';

export interface GenerationInput {
  userInput: string;
  /** Text of the uploaded file, if any. */
  document: string | null;
  /** Session length in minutes. */
  duration: number;
}

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

const SKILLS = [
  // languages and runtimes
  'JavaScript',
  'TypeScript',
  'Python',
  'Java',
  'Kotlin',
  'Swift',
  'Go',
  'Golang',
  'Rust',
  'C++',
  'C#',
  'Ruby',
  'PHP',
  'Scala',
  'Elixir',
  'SQL',
  'R',
  'Node.js',
  '.NET',
  // frameworks and platforms
  'React',
  'Angular',
  'Vue',
  'Next.js',
  'Django',
  'Flask',
  'FastAPI',
  'Spring',
  'Rails',
  'Laravel',
  'GraphQL',
  'REST',
  'gRPC',
  'Kafka',
  'RabbitMQ',
  'Redis',
  'PostgreSQL',
  'MySQL',
  'MongoDB',
  'Elasticsearch',
  'Snowflake',
  'Spark',
  'Airflow',
  'dbt',
  'Pandas',
  'PyTorch',
  'TensorFlow',
  'scikit-learn',
  'LLMs',
  'machine learning',
  'deep learning',
  'NLP',
  'computer vision',
  'data analysis',
  'data modeling',
  'statistics',
  'A/B testing',
  'AWS',
  'Azure',
  'GCP',
  'Google Cloud',
  'Kubernetes',
  'Docker',
  'Terraform',
  'Ansible',
  'CI/CD',
  'Linux',
  'microservices',
  'distributed systems',
  'system design',
  'observability',
  'security',
  'networking',
  'iOS',
  'Android',
  'mobile development',
  'frontend',
  'backend',
  'full-stack',
  'testing',
  'test automation',
  // design and product
  'Figma',
  'Sketch',
  'user research',
  'UX design',
  'UI design',
  'prototyping',
  'design systems',
  'accessibility',
  'product strategy',
  'roadmapping',
  'product discovery',
  'analytics',
  'SEO',
  'content marketing',
  'performance marketing',
  'Salesforce',
  'HubSpot',
  'CRM',
  'Excel',
  'Tableau',
  'Power BI',
  'Looker',
  'Jira',
  // business and people
  'B2B sales',
  'SaaS',
  'account management',
  'negotiation',
  'prospecting',
  'cold calling',
  'pipeline management',
  'customer success',
  'customer support',
  'onboarding',
  'stakeholder management',
  'project management',
  'Agile',
  'Scrum',
  'Kanban',
  'budgeting',
  'forecasting',
  'financial modeling',
  'accounting',
  'recruiting',
  'hiring',
  'coaching',
  'mentoring',
  'people management',
  'leadership',
  'communication',
  'presentation skills',
  'public speaking',
  'problem solving',
  'conflict resolution',
  'teamwork',
  'time management',
  'copywriting',
  'requirements gathering',
  'business analysis',
  'process improvement',
  'change management',
  'compliance',
];

/** Broad areas that make weak interview questions on their own: asked about last. */
const GENERIC_SKILLS = new Set([
  'backend',
  'frontend',
  'full-stack',
  'testing',
  'security',
  'networking',
  'analytics',
  'communication',
  'teamwork',
  'leadership',
  'problem solving',
  'time management',
  'saas',
  'hiring',
  'coaching',
]);

const ROLE_NOUNS =
  'engineer|developer|programmer|architect|designer|researcher|scientist|analyst|manager|director|lead|head|consultant|specialist|representative|rep|executive|associate|coordinator|administrator|accountant|controller|recruiter|marketer|strategist|writer|editor|officer|advisor|adviser|nurse|teacher|tutor|coach|technician|owner|partner|agent|assistant|intern|salesperson|vp|president|cto|ceo|cfo|coo';
const ROLE_WORD = "[A-Za-z][A-Za-z+#./&'-]*";
const ROLE_RE = new RegExp(
  `\\b((?:${ROLE_WORD}\\s+){0,4}?(?:${ROLE_NOUNS}))\\b(?:\\s+(?:of|for)\\s+(${ROLE_WORD}(?:\\s+${ROLE_WORD})?))?`,
  'i',
);
const LEADING_NOISE =
  /^(?:a|an|the|our|new|experienced|talented|motivated|passionate|skilled|great|strong|hiring|seeking|looking|for|as|to|join|we|are|is|am|i|you|be|role|position|job|title|of|practice|with|my|me|mock|interview|prepare|help)\s+/i;

const FEMALE_NAMES = [
  'Priya Raman',
  'Sarah Mitchell',
  'Elena Kovacs',
  'Grace Okafor',
  'Hannah Lindqvist',
  'Maria Santos',
];
const MALE_NAMES = [
  'Marcus Chen',
  'David Okonkwo',
  'Tom Becker',
  'Rafael Ortiz',
  'James Whitaker',
  'Samuel Adeyemi',
];

const HEADING =
  /^\s*(?:#{1,6}\s+(.+?)\s*#*\s*$|(?:\*\*|__)?([A-Z][A-Za-z0-9 ,&/'()-]{2,60}?)(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*$|([A-Z][A-Z0-9 &/'-]{3,40})\s*$)/;
const BULLET = /^\s*(?:[-*+•▪●◦]|\d{1,2}[.)])\s+(.+)$/;

const REQUIREMENT_HEADING =
  /requirement|qualification|must[- ]have|nice[- ]to[- ]have|what you(?:'ll| will)? (?:need|bring)|who you are|about you|you have|skills|experience|profile|ideal candidate/i;
const RESPONSIBILITY_HEADING =
  /responsibilit|what you(?:'ll| will) do|the role|your role|duties|day[- ]to[- ]day|you will|what you'll be doing|mission|impact/i;

/** Splits text into headed sections of lines; lines before any heading go under null. */
function sections(text: string): { heading: string | null; lines: string[] }[] {
  const result: { heading: string | null; lines: string[] }[] = [{ heading: null, lines: [] }];
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const heading = BULLET.test(line) ? null : HEADING.exec(line);
    if (heading) {
      result.push({ heading: (heading[1] ?? heading[2] ?? heading[3] ?? '').trim(), lines: [] });
      continue;
    }
    result.at(-1)!.lines.push(line);
  }
  return result;
}

function clean(item: string): string {
  return item
    .replace(BULLET, '$1')
    .replace(/[*_`]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/[\s;,.]+$/, '')
    .trim();
}

function itemsUnder(parts: ReturnType<typeof sections>, heading: RegExp, limit: number): string[] {
  const items: string[] = [];
  for (const part of parts) {
    if (!part.heading || !heading.test(part.heading)) continue;
    for (const line of part.lines) {
      const text = clean(line);
      if (text.length >= 8 && text.length <= 220) items.push(text);
    }
  }
  return unique(items).slice(0, limit);
}

function unique<T>(values: T[]): T[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = String(value).toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
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

function titleCase(text: string): string {
  return text
    .split(/\s+/)
    .map((word) =>
      /^(?:of|for|and|the|in|to|a|an)$/i.test(word)
        ? word.toLowerCase()
        : /[A-Z].*[A-Z]|[+#./]/.test(word)
          ? word
          : word[0]!.toUpperCase() + word.slice(1).toLowerCase(),
    )
    .join(' ');
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

const COMPANY_STOP =
  /^(?:the|a|an|our|my|your|this|that|we|i|you|it|home|work|least|most|all|scale|speed|pace|startups?|companies)$/i;

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

const MOODS: [RegExp, Demeanor][] = [
  [/scept|skept|doubt|critical|demanding|tough|difficult/i, 'critical'],
  [/angry|upset|frustrated|annoyed|irate/i, 'blunt'],
  [/busy|impatient|direct/i, 'assertive'],
  [/friendly|warm|nice/i, 'friendly'],
  [/curious|interested/i, 'curious'],
];

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

function sentenceCase(text: string): string {
  const trimmed = text.trim();
  return trimmed ? trimmed[0]!.toUpperCase() + trimmed.slice(1) : trimmed;
}

function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2))}…`;
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

function pick<T>(items: readonly T[], seed: number): T {
  return items[seed % items.length]!;
}

function seedOf(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

function questionCount(duration: number): number {
  return Math.max(4, Math.min(10, Math.round(duration / 4)));
}

interface Plan {
  personaTitle: string;
  demeanor: Demeanor;
  name: string;
  description: string;
  roleLine: string;
  context: string[];
  questions: string[];
  rules: string[];
  goals: GeneratedScenario['goals'];
  background: string;
}

function interviewPlan(facts: TextFacts, input: GenerationInput): Plan {
  const role = facts.role ?? 'the role';
  const company = facts.company ?? 'the company';
  const roleName = facts.role ?? 'Candidate';
  const technical = /engineer|developer|architect|scientist|analyst|devops|sre|programmer|data/i.test(role);
  const personaTitle = /engineer|developer|architect|devops|sre|programmer/i.test(role)
    ? facts.seniority === 'leadership'
      ? 'VP of Engineering'
      : 'Engineering Manager'
    : /designer|ux|ui\b/i.test(role)
      ? 'Design Director'
      : /sales|account|business development/i.test(role)
        ? 'Head of Sales'
        : /product/i.test(role)
          ? 'Director of Product'
          : /data|analyst|scientist/i.test(role)
            ? 'Head of Data'
            : /market/i.test(role)
              ? 'Marketing Director'
              : 'Hiring Manager';
  const resume = facts.documentKind === 'resume';
  // Candidate questions with a priority: the session keeps the most important ones that fit the
  // duration, asked in interview order.
  const pool: { priority: number; question: string }[] = [
    {
      priority: 1,
      question: resume
        ? 'Could you walk me through your background and the experience on your résumé that matters most for this role?'
        : 'Could you start by telling me about yourself and what brings you to this role?',
    },
    {
      priority: 2,
      question: facts.role
        ? `What interests you about the ${role} position${facts.company ? ` at ${company}` : ''}?`
        : 'What interests you about this position?',
    },
  ];
  facts.skills.slice(0, 3).forEach((skill, index) => {
    pool.push({
      priority: [3, 8, 12][index]!,
      question: `Can you describe a project where you used ${skill}, and the part you personally played?`,
    });
  });
  facts.requirements.slice(0, 2).forEach((requirement, index) => {
    pool.push({
      priority: [4, 11][index]!,
      question: `The role asks for "${lowerFirst(requirement)}". How does your experience match that?`,
    });
  });
  for (const responsibility of facts.responsibilities.slice(0, 1)) {
    pool.push({
      priority: 9,
      question: `A big part of this job is to ${lowerFirst(responsibility.replace(/^(?:you will|you'll)\s+/i, ''))}. How would you approach that in your first months?`,
    });
  }
  if (technical) {
    pool.push({
      priority: 7,
      question:
        'Tell me about a difficult technical problem you solved. How did you break it down, and what trade-offs did you make?',
    });
  }
  pool.push({
    priority: 5,
    question:
      'Tell me about a time you disagreed with a colleague or stakeholder. How did you handle it, and what was the outcome?',
  });
  if (facts.seniority === 'senior' || facts.seniority === 'leadership') {
    pool.push({
      priority: 10,
      question:
        'How have you raised the bar for the people around you, for example through mentoring or setting standards?',
    });
  } else if (facts.seniority === 'junior') {
    pool.push({
      priority: 10,
      question: 'How do you approach learning something new quickly when you are stuck?',
    });
  }
  pool.push({
    priority: 6,
    question: 'What would you want to have achieved after your first ninety days in this role?',
  });
  const count = questionCount(input.duration);
  const kept = new Set([...pool].sort((a, b) => a.priority - b.priority).slice(0, count));
  const chosen = pool.filter((entry) => kept.has(entry)).map((entry) => entry.question);
  const seniorityWord = facts.seniority === 'mid' ? 'mid-level' : facts.seniority;
  const seniorityLabel =
    seniorityWord && !new RegExp(`\\b${seniorityWord}\\b`, 'i').test(role) && facts.seniority !== 'leadership'
      ? `${seniorityWord} `
      : '';
  return {
    personaTitle: facts.company ? `${personaTitle}, ${company}` : personaTitle,
    demeanor: technical ? 'analytical' : facts.seniority === 'junior' ? 'friendly' : 'curious',
    name: `${roleName} interview${facts.company ? ` — ${company}` : ''}`,
    description: `A ${input.duration}-minute mock interview for a ${seniorityLabel}${role} position${facts.company ? ` at ${company}` : ''}${facts.skills.length ? `, covering ${facts.skills.slice(0, 3).join(', ')}` : ''}.`,
    roleLine: `You are interviewing the participant for a ${seniorityLabel}${role} position${facts.company ? ` at ${company}` : ''}.`,
    context: [
      `Role: ${role}${seniorityWord ? ` (${seniorityWord})` : ''}`,
      ...(facts.company ? [`Company: ${company}`] : []),
      ...(facts.yearsOfExperience ? [`Experience asked for: about ${facts.yearsOfExperience}+ years`] : []),
      ...(facts.skills.length ? [`Key skills: ${facts.skills.slice(0, 8).join(', ')}`] : []),
      ...facts.requirements.slice(0, 5).map((r) => `Requirement: ${r}`),
      ...facts.responsibilities.slice(0, 4).map((r) => `Responsibility: ${r}`),
    ],
    questions: chosen,
    rules: [
      'Ask one question at a time and wait for the answer.',
      'Ask one short follow-up when an answer is vague: ask for a concrete example, the candidate’s own contribution and the result.',
      'Stay professional and neutral; do not give feedback or hints about how the candidate is doing.',
      `Keep the interview within ${input.duration} minutes; skip questions rather than rush.`,
      'Close by thanking the candidate and saying they will hear about next steps soon.',
    ],
    goals: [
      {
        name: 'Relevant experience',
        description: `Did the candidate show experience relevant to the ${role} role${facts.skills.length ? ` (${facts.skills.slice(0, 4).join(', ')})` : ''}?`,
        instructions:
          'Score 1-10. 9-10: several concrete, detailed examples that clearly match the role’s skills. 6-8: relevant examples with some gaps in detail. 3-5: mostly general statements. 1-2: no relevant experience shown.',
      },
      {
        name: 'Structured answers',
        description: 'Did the candidate answer with situation, action and result (STAR)?',
        instructions:
          'Score 1-10. 9-10: answers consistently give the situation, the candidate’s own actions and a measurable result. 5-8: structure present in some answers. 1-4: rambling or unstructured answers.',
      },
      {
        name: facts.requirements.length ? 'Fit with the requirements' : 'Role understanding',
        description: facts.requirements.length
          ? `How well did the candidate address the role’s requirements (${facts.requirements.slice(0, 2).join('; ')})?`
          : 'Did the candidate show they understand what the role involves and why they want it?',
        instructions:
          'Score 1-10. 9-10: addressed the key requirements with evidence. 5-8: addressed some requirements. 1-4: did not connect their experience to the role.',
      },
      {
        name: 'Communication',
        description: 'Were the answers clear, concise and confident?',
        instructions:
          'Score 1-10. 9-10: clear, concise and confident throughout. 5-8: generally clear with some filler or rambling. 1-4: hard to follow.',
      },
    ],
    background: `${personaTitle}${facts.company ? ` at ${company}` : ''}, who has interviewed many candidates for ${role} roles. Values concrete examples, honesty about trade-offs and clear communication.`,
  };
}

function roleplayPlan(facts: TextFacts, input: GenerationInput): Plan {
  const topic = facts.topic ?? 'the conversation the participant asked for';
  const counterpart = findCounterpart(input.userInput);
  const organisation = counterpart?.organisation ?? facts.company;
  const company = organisation ?? 'your company';
  const sales = /\b(?:sell|sales|pitch|prospect|demo|deal|renewal|upsell|purchase|buy)\w*/i.test(
    input.userInput,
  );
  const questions = sales
    ? [
        'So, what did you want to talk to me about today?',
        'We already have a way of handling this. Why would we change?',
        'How exactly would this help my team day to day?',
        'What does it cost, and what is included?',
        'Honestly, that sounds expensive. How would I justify it to my boss?',
        'What happens if it does not work out the way you describe?',
        'Who else like us is using this, and what results did they see?',
        'What would the next steps be if we wanted to go ahead?',
      ]
    : [
        'So, what did you want to talk to me about?',
        'Can you explain why this matters so much to you?',
        'I see it differently. Why should I accept your view?',
        'What exactly are you asking me to do?',
        'What happens if we cannot agree on this?',
        'What would you be willing to change on your side?',
        'How do we make sure this does not happen again?',
        'So what are we agreeing on as the next step?',
      ];
  const count = Math.min(questions.length, questionCount(input.duration));
  return {
    personaTitle: counterpart
      ? `${counterpart.title}${organisation ? `, ${sentenceCase(organisation)}` : ''}`
      : sales
        ? `Operations Director, ${company}`
        : 'Counterpart',
    demeanor: counterpart?.demeanor ?? (sales ? 'critical' : 'assertive'),
    name: shorten(
      counterpart
        ? `${sales ? 'Sales conversation' : 'Role-play'} with a ${counterpart.title}${organisation ? ` (${organisation})` : ''}`
        : sentenceCase(topic),
      100,
    ),
    description: `A ${input.duration}-minute role-play: ${topic}.`,
    roleLine: sales
      ? `You are ${counterpart ? `the ${counterpart.title}` : 'a busy, sceptical buyer'} at ${company}. The participant is trying to sell to you (${topic}).`
      : `You are the participant’s counterpart in this conversation: ${topic}. Push back realistically.`,
    context: [`Situation: ${topic}`, ...facts.requirements.slice(0, 3).map((r) => `Detail: ${r}`)],
    questions: questions.slice(0, count),
    rules: [
      'Stay in character for the whole call; never mention that this is a simulation.',
      'Raise realistic objections and only soften when the participant addresses them well.',
      'Keep replies short (one to three sentences), as in a real conversation.',
      `Keep the conversation within ${input.duration} minutes.`,
    ],
    goals: [
      {
        name: sales ? 'Discovery' : 'Understanding the other side',
        description: sales
          ? 'Did the participant ask about the buyer’s situation, pain points and impact before pitching?'
          : 'Did the participant ask questions to understand the counterpart’s view?',
        instructions:
          'Score 1-10. 9-10: asked several open questions and built on the answers. 5-8: some questions, partly generic. 1-4: talked without asking.',
      },
      {
        name: 'Handling objections',
        description: 'Did the participant acknowledge and address the pushback?',
        instructions:
          'Score 1-10. 9-10: acknowledged each objection and answered it with specifics. 5-8: addressed some objections. 1-4: ignored or argued with objections.',
      },
      {
        name: sales ? 'Value articulation' : 'Clarity of the ask',
        description: sales
          ? 'Did the participant tie the offer to the buyer’s needs in concrete terms?'
          : 'Did the participant state clearly what they want and why?',
        instructions:
          'Score 1-10. 9-10: specific, tailored and concise. 5-8: mostly clear but generic. 1-4: vague or confusing.',
      },
      {
        name: 'Agreed next step',
        description: 'Did the conversation end with a concrete next step?',
        instructions:
          'Score 1-10. 9-10: a specific next step with owner and date was agreed. 5-8: a vague next step. 1-4: no next step.',
      },
    ],
    background: sales
      ? `${counterpart ? `The ${counterpart.title}` : 'Runs operations'} at ${company}; has seen many vendors overpromise and cares about cost, risk and the effort for the team.`
      : 'Has their own priorities and constraints and is not easily persuaded, but fair when given good reasons.',
  };
}

function upskillPlan(facts: TextFacts, input: GenerationInput): Plan {
  const focus = facts.topic
    ?.replace(
      /^(?:to\s+)?(?:practi[cs]e|improve(?: my| at)?|work on|get better at|train(?: on)?|learn(?: to| how to)?|coach me on|prepare for)\s+/i,
      '',
    )
    .replace(/^(?:my|our)\s+/i, '');
  const skill = focus || facts.skills[0] || 'the skill the participant wants to practise';
  const questions = [
    `Which part of ${skill} would you like to get better at in this session?`,
    'Can you describe a recent situation where this really mattered?',
    'What did you do, step by step?',
    'What went well, and what would you do differently next time?',
    'Let us practise it now: how would you handle that moment if it happened again today?',
    'What is one concrete thing you will try the next time it comes up?',
    'How will you know that it is working?',
  ];
  const count = Math.min(questions.length, questionCount(input.duration));
  return {
    personaTitle: 'Coach',
    demeanor: 'empathetic',
    name: shorten(`Practice: ${skill}`, 100),
    description: `A ${input.duration}-minute coaching session to practise ${skill}.`,
    roleLine: `You are a supportive coach helping the participant practise ${skill}.`,
    context: [`Focus: ${skill}`, ...facts.skills.slice(1, 5).map((s) => `Related skill: ${s}`)],
    questions: questions.slice(0, count),
    rules: [
      'Ask one question at a time; let the participant do most of the talking.',
      'Reflect back what you heard before moving on, and give one specific, kind suggestion at a time.',
      `Keep the session within ${input.duration} minutes.`,
    ],
    goals: [
      {
        name: 'Self-reflection',
        description: 'Did the participant analyse their own behaviour honestly?',
        instructions:
          'Score 1-10. 9-10: specific about what they did and why, names what to change. 5-8: some reflection. 1-4: vague or defensive.',
      },
      {
        name: 'Applying the skill',
        description: `Did the participant apply ${skill} during the practice?`,
        instructions:
          'Score 1-10. 9-10: applied the technique convincingly in the practice. 5-8: partly applied. 1-4: did not apply it.',
      },
      {
        name: 'Action plan',
        description: 'Did the participant leave with a concrete next action and a way to measure it?',
        instructions:
          'Score 1-10. 9-10: a specific action, when they will do it and how they will measure it. 5-8: an action without measure. 1-4: none.',
      },
    ],
    background:
      'An experienced coach who asks good questions, listens closely and gives practical, encouraging feedback.',
  };
}

function brainstormPlan(facts: TextFacts, input: GenerationInput): Plan {
  const topic =
    facts.topic?.replace(
      /^(?:let's\s+)?brainstorm(?:ing)?\s+(?:ideas?\s+|some ideas?\s+)?(?:to|for|on|about|around|how to)?\s*/i,
      '',
    ) || 'the problem the participant brought';
  const questions = [
    'What problem are we trying to solve today, in one sentence?',
    'Who is most affected by this problem, and how?',
    'What ideas do you already have, even rough ones?',
    'If there were no constraints at all, what would you try?',
    'Which idea is the cheapest to test, and how would you test it?',
    'What could make the best idea fail?',
    'Which idea would you take forward first, and what is the first step?',
  ];
  const count = Math.min(questions.length, questionCount(input.duration));
  return {
    personaTitle: 'Innovation Partner',
    demeanor: 'enthusiastic',
    name: shorten(`Brainstorm: ${topic}`, 100),
    description: `A ${input.duration}-minute brainstorming session: ${topic}.`,
    roleLine: `You are a curious, energetic thinking partner helping the participant brainstorm: ${topic}.`,
    context: [`Topic: ${topic}`, ...facts.requirements.slice(0, 3).map((r) => `Constraint: ${r}`)],
    questions: questions.slice(0, count),
    rules: [
      'Encourage quantity first, judgement later; build on the participant’s ideas.',
      'Ask one question at a time and keep replies short.',
      `Keep the session within ${input.duration} minutes.`,
    ],
    goals: [
      {
        name: 'Problem framing',
        description: 'Did the participant define the problem and who it affects?',
        instructions:
          'Score 1-10. 9-10: crisp problem statement with the affected people. 5-8: partial. 1-4: unclear.',
      },
      {
        name: 'Idea generation',
        description: 'How many distinct, relevant ideas did the participant produce?',
        instructions:
          'Score 1-10. 9-10: five or more distinct ideas. 5-8: three or four. 1-4: fewer than three.',
      },
      {
        name: 'Prioritisation',
        description: 'Did the participant choose an idea and a first step to test it?',
        instructions:
          'Score 1-10. 9-10: chose with reasons and a concrete test. 5-8: chose without a test. 1-4: no choice.',
      },
    ],
    background:
      'A product strategist who loves early-stage ideas and asks questions that open up new angles.',
  };
}

/** Builds a complete scenario from the text with rules only; deterministic for the same input. */
export function generateOffline(input: GenerationInput): GeneratedScenario & { facts: TextFacts } {
  const facts = readFacts(input);
  const plan =
    facts.type === 'interview'
      ? interviewPlan(facts, input)
      : facts.type === 'upskill'
        ? upskillPlan(facts, input)
        : facts.type === 'brainstorm'
          ? brainstormPlan(facts, input)
          : roleplayPlan(facts, input);
  const seed = seedOf(`${input.userInput}\n${input.document ?? ''}`);
  const gender: Gender = seed % 2 === 0 ? 'female' : 'male';
  const personaName = pick(gender === 'female' ? FEMALE_NAMES : MALE_NAMES, seed >>> 1);
  const firstName = personaName.split(' ')[0]!;
  const prompt = [
    `# ${plan.name}`,
    '',
    '## Your role',
    `You are ${personaName}, ${plan.personaTitle}. ${plan.roleLine}`,
    '',
    '## Context',
    ...plan.context.map((line) => `- ${line}`),
    '',
    '## Conversation flow',
    ...plan.questions.map((question, index) => `${index + 1}. ${question}`),
    '',
    '## Rules',
    ...plan.rules.map((rule) => `- ${rule}`),
    '',
  ].join('\n');
  const opening =
    facts.type === 'interview'
      ? `Hi, I'm ${firstName}, ${plan.personaTitle}. Thanks for joining this interview${facts.role ? ` for the ${facts.role} role` : ''}. Shall we begin?`
      : facts.type === 'upskill'
        ? `Hi, I'm ${firstName}. Welcome to your practice session — there are no wrong answers here. Shall we begin?`
        : facts.type === 'brainstorm'
          ? `Hi, I'm ${firstName}. I'm looking forward to thinking this through with you. Shall we get started?`
          : `Hi, I'm ${firstName}. I've got a few minutes — what did you want to discuss?`;
  return {
    facts,
    scenario: {
      name: plan.name.slice(0, 120),
      type: facts.type,
      description: plan.description.slice(0, 600),
      prompt,
      welcome_message: opening,
    },
    persona: {
      name: personaName,
      job_title: plan.personaTitle.slice(0, 100),
      demeanor: plan.demeanor,
      gender,
      background: plan.background,
    },
    goals: plan.goals,
  };
}
