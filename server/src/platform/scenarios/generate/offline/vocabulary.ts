// The words the offline generator recognises: skills, role titles, words that are not company
// names, the moods of a counterpart, and the names its personas are given.
import type { Demeanor } from '../../tables.ts';

export const SKILLS = [
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
export const GENERIC_SKILLS = new Set([
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

/**
 * The last word of a job title; ROLE_RE takes up to four words before it ("Senior Backend
 * Engineer") and an "of"/"for" part ("Head of Operations"), all on one line: a title never
 * spans a line break, so a company name on the line above does not join it.
 */
export const ROLE_NOUNS =
  'engineer|developer|programmer|architect|designer|researcher|scientist|analyst|manager|director|lead|head|consultant|specialist|representative|rep|executive|associate|coordinator|administrator|accountant|controller|recruiter|marketer|strategist|writer|editor|officer|advisor|adviser|nurse|teacher|tutor|coach|technician|owner|partner|agent|assistant|intern|salesperson|vp|president|cto|ceo|cfo|coo';
export const ROLE_WORD = "[A-Za-z][A-Za-z+#./&'-]*";
/** Words no title holds: "Head of Operations at Fernway" stops before "at", "platform to a CFO" is no title. */
const NOT_IN_TITLE = '(?!(?:at|in|on|with|and|or|to|for|from|who|where|the|an?|our|your|their)\\b)';
export const ROLE_RE = new RegExp(
  `\\b((?:${NOT_IN_TITLE}${ROLE_WORD}[ \\t]+){0,4}?(?:${ROLE_NOUNS}))\\b(?:[ \\t]+(?:of|for)[ \\t]+(${NOT_IN_TITLE}${ROLE_WORD}(?:[ \\t]+${NOT_IN_TITLE}${ROLE_WORD})?))?`,
  'i',
);
/** Words a title match picks up from the sentence around it ("a passionate engineer"), dropped from its front. */
export const LEADING_NOISE =
  /^(?:a|an|the|our|new|experienced|talented|motivated|passionate|skilled|great|strong|hiring|seeking|looking|for|as|to|join|we|are|is|am|i|you|be|role|position|job|title|of|practice|with|my|me|mock|interview|prepare|help)\s+/i;

/** Persona names; the text's hash picks one, so the same input always gets the same persona. */
export const FEMALE_NAMES = [
  'Priya Raman',
  'Sarah Mitchell',
  'Elena Kovacs',
  'Grace Okafor',
  'Hannah Lindqvist',
  'Maria Santos',
];
export const MALE_NAMES = [
  'Marcus Chen',
  'David Okonkwo',
  'Tom Becker',
  'Rafael Ortiz',
  'James Whitaker',
  'Samuel Adeyemi',
];

/** Words the company patterns catch ("at home", "at scale", "for startups") that name no company. */
export const COMPANY_STOP =
  /^(?:the|a|an|our|my|your|this|that|we|i|you|it|home|work|least|most|all|scale|speed|pace|startups?|companies)$/i;

/** The adjective before a role-play counterpart ("a sceptical CFO") sets the persona's demeanor. */
export const MOODS: [RegExp, Demeanor][] = [
  [/scept|skept|doubt|critical|demanding|tough|difficult/i, 'critical'],
  [/angry|upset|frustrated|annoyed|irate/i, 'blunt'],
  [/busy|impatient|direct/i, 'assertive'],
  [/friendly|warm|nice/i, 'friendly'],
  [/curious|interested/i, 'curious'],
];
