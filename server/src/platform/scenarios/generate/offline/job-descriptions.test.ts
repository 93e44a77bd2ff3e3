// The offline generator on job ads, posts and briefs written the way people write them (the
// fixtures in job-descriptions/): the company and role it reads, the facts it lists, and how
// the generated scenario reads. A heading must never end up in a name ("Acme Corp Requirements"),
// and a company the text does not name must not be invented.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { Value } from 'typebox/value';
import { checkGenerated, GeneratedScenario, type GenerationInput } from '../schema.ts';
import { generateOffline } from './generate.ts';

interface Case {
  file: string;
  /** What the person typed; the fixture is pasted after it, or uploaded beside it. */
  request: string;
  uploaded?: boolean;
  company: string | null;
  role: string | null;
  type: 'interview' | 'roleplay' | 'upskill';
  skills?: string[];
  requirement?: string;
  responsibility?: string;
  name: string;
  personaTitle: string;
  /** Text the prompt must hold: facts the persona needs. */
  prompt?: RegExp[];
}

const CASES: Case[] = [
  {
    file: 'acme-backend.md',
    request: 'Interview practice for this job:',
    company: 'Acme Corp',
    role: 'Senior Backend Engineer',
    type: 'interview',
    skills: ['Go', 'Java', 'PostgreSQL', 'Kafka', 'Kubernetes'],
    requirement: '5+ years building backend services in Go or Java',
    responsibility: 'Design and own the APIs behind our checkout platform',
    name: 'Senior Backend Engineer interview — Acme Corp',
    personaTitle: 'Engineering Manager, Acme Corp',
  },
  {
    file: 'northwind-designer.txt',
    request: 'Mock interview please',
    uploaded: true,
    company: 'Northwind Health',
    role: 'Product Designer',
    type: 'interview',
    skills: ['user research', 'Figma', 'accessibility'],
    requirement: '3+ years of product design experience, ideally in a regulated industry',
    responsibility: 'Run user research with patients and clinicians',
    name: 'Product Designer interview — Northwind Health',
    personaTitle: 'Design Director, Northwind Health',
  },
  {
    file: 'pinecrest-frontend.txt',
    request: '',
    uploaded: true,
    company: 'Pinecrest Labs',
    role: 'Frontend Developer',
    type: 'interview',
    skills: ['React', 'TypeScript', 'GraphQL'],
    requirement: '2+ years of professional experience with React',
    responsibility: 'Build new features for our storefront in React and TypeScript',
    name: 'Frontend Developer interview — Pinecrest Labs',
    personaTitle: 'Engineering Manager, Pinecrest Labs',
  },
  {
    file: 'brightwave-linkedin.txt',
    request: 'Prepare me for an interview for this:',
    company: 'Brightwave',
    role: 'Customer Success Manager',
    type: 'interview',
    skills: ['customer success', 'HubSpot', 'SaaS'],
    responsibility:
      'own a book of ~40 mid-market accounts, run onboarding and QBRs, and be the voice of the customer inside the company',
    name: 'Customer Success Manager interview — Brightwave',
    personaTitle: 'Hiring Manager, Brightwave',
  },
  {
    file: 'unnamed-marketing.md',
    request: 'Interview me for this role',
    uploaded: true,
    company: null,
    role: 'Marketing Manager',
    type: 'interview',
    skills: ['HubSpot', 'copywriting'],
    requirement: '4+ years in B2B marketing',
    responsibility: 'Plan and run multi-channel campaigns (paid, email, events)',
    name: 'Marketing Manager interview',
    personaTitle: 'Marketing Director',
  },
  {
    file: 'lumen-analyst.txt',
    request: '',
    company: 'Lumen Bank',
    role: 'Data Analyst',
    type: 'interview',
    skills: ['Tableau', 'SQL', 'Snowflake', 'Python'],
    requirement: '2+ years of experience in a similar role is required, and Python is a plus',
    responsibility:
      'build dashboards in Tableau, write SQL against our Snowflake warehouse and present your findings to the credit committee',
    name: 'Data Analyst interview — Lumen Bank',
    personaTitle: 'Head of Data, Lumen Bank',
  },
  {
    file: 'tallis-account-executive.md',
    request: 'Mock interview',
    uploaded: true,
    company: 'Tallis',
    role: 'Account Executive',
    type: 'interview',
    skills: ['prospecting', 'Salesforce', 'B2B sales'],
    requirement: '3+ years of B2B sales experience, ideally in SaaS',
    responsibility:
      'Run the full sales cycle, from the first discovery call to signature, for clinics with 5–50 chairs',
    name: 'Account Executive interview — Tallis',
    personaTitle: 'Head of Sales, Tallis',
  },
  {
    file: 'quill-recruiter-email.txt',
    request: 'Help me prepare for this interview',
    uploaded: true,
    company: 'Quill',
    role: 'Sales Development Representative',
    type: 'interview',
    skills: ['prospecting', 'cold calling', 'Salesforce'],
    name: 'Sales Development Representative interview — Quill',
    personaTitle: 'Head of Sales, Quill',
  },
  {
    // The résumé's employers (Globex, Initech) and past titles are not the job applied for.
    file: 'resume-contoso.md',
    request: 'Prepare me for my interview at Contoso for the Senior Product Manager role',
    uploaded: true,
    company: 'Contoso',
    role: 'Senior Product Manager',
    type: 'interview',
    skills: ['product discovery', 'A/B testing', 'stakeholder management'],
    name: 'Senior Product Manager interview — Contoso',
    personaTitle: 'Director of Product, Contoso',
    prompt: [
      /résumé mentions "led the roadmap for a B2B invoicing product/,
      /From the candidate’s résumé: Led the roadmap/,
    ],
  },
  {
    file: 'fernway-discovery.txt',
    request: '',
    company: 'Fernway Freight',
    role: 'Head of Operations',
    type: 'roleplay',
    name: 'Discovery call with the Head of Operations (Fernway Freight)',
    personaTitle: 'Head of Operations, Fernway Freight',
    prompt: [/about 120 drivers/, /plan routes in spreadsheets/, /uncovering their pain points and budget/],
  },
  {
    // The participant leads: a cooperative stakeholder who answers, not one who pushes back.
    file: 'requirements-brief.txt',
    request: '',
    company: 'Harbor Logistics',
    role: 'Business Analyst',
    type: 'roleplay',
    skills: ['requirements gathering'],
    name: 'Requirements conversation with Harbor Logistics',
    personaTitle: 'Client, Harbor Logistics',
    prompt: [/three warehouses and still pick orders from paper lists/, /gathering requirements from you/],
  },
  {
    file: 'coaching-review.txt',
    request: '',
    company: null,
    role: 'Manager',
    type: 'upskill',
    name: 'Practice: giving the feedback clearly without sounding harsh',
    personaTitle: 'Coach',
    prompt: [/missed three deadlines in a row/],
  },
];

/** Words of a section heading: none may appear in a name, a title or the company. */
const HEADING_WORDS =
  /\b(?:requirements?|responsibilities|qualifications|benefits|perks|about (?:us|the role)|what you(?:'ll| will) (?:do|bring)|nice to have|key skills)\b/i;

function inputOf(entry: Case): GenerationInput {
  const text = readFileSync(new URL(`./job-descriptions/${entry.file}`, import.meta.url), 'utf8');
  return entry.uploaded
    ? { userInput: entry.request, document: text, duration: 30 }
    : { userInput: entry.request ? `${entry.request}\n${text}` : text, document: null, duration: 30 };
}

describe('offline generator on real-shaped job descriptions and briefs', () => {
  for (const entry of CASES) {
    test(entry.file, () => {
      const generated = generateOffline(inputOf(entry));
      const { facts, scenario, persona, goals } = generated;
      assert.equal(facts.company, entry.company, 'company');
      assert.equal(facts.role, entry.role, 'role');
      assert.equal(facts.type, entry.type, 'type');
      for (const skill of entry.skills ?? []) assert.ok(facts.skills.includes(skill), `skill ${skill}`);
      if (entry.requirement) assert.equal(facts.requirements[0], entry.requirement, 'first requirement');
      if (entry.responsibility) assert.equal(facts.responsibilities[0], entry.responsibility, 'first duty');
      assert.equal(scenario.name, entry.name);
      assert.equal(persona.job_title, entry.personaTitle);

      // Headings stay headings: never a name, a listed item or part of the titles (past the
      // template's own words, as in "Requirements conversation with …").
      const title = scenario.name.replace(/^Requirements conversation with /, '');
      for (const name of [facts.company, facts.role, title, persona.job_title, scenario.welcome_message])
        assert.doesNotMatch(name ?? '', HEADING_WORDS);
      for (const item of [...facts.requirements, ...facts.responsibilities])
        assert.doesNotMatch(item, /^(?:what you'll do|benefits|perks & benefits|about us|requirements)$/i);
      // No company named, none invented.
      if (entry.company === null) {
        assert.doesNotMatch(scenario.prompt, /^- Company:/m);
        assert.doesNotMatch(`${scenario.name}\n${persona.job_title}`, / at | — |, /);
        assert.doesNotMatch(scenario.description, / at [A-Z]/);
      } else {
        assert.match(scenario.prompt, new RegExp(entry.company));
      }

      // A valid scenario that reads as written by a person.
      assert.ok(Value.Check(GeneratedScenario, { scenario, persona, goals }), 'schema');
      assert.deepEqual(checkGenerated({ scenario, persona, goals }), []);
      const prose = [scenario.description, scenario.prompt, scenario.welcome_message, persona.background];
      for (const text of [...prose, ...goals.map((goal) => goal.description)]) {
        assert.doesNotMatch(text, /\ba [aeiou]\w/i, 'article before a vowel');
        assert.doesNotMatch(text, / {2}|\.\.|\bthe the\b|undefined|null/);
      }
      assert.match(scenario.description, /^A 30-minute [^\n]+\.$/);
      if (entry.type === 'interview') {
        assert.match(scenario.prompt, new RegExp(`^- Role: ${entry.role}`, 'm'));
        assert.match(scenario.welcome_message, new RegExp(`for the ${entry.role} role`));
        if (entry.company) assert.match(scenario.welcome_message, new RegExp(entry.company));
      }
      for (const pattern of entry.prompt ?? []) assert.match(scenario.prompt, pattern);
    });
  }

  test('the same input always gives the same scenario', () => {
    const input = inputOf(CASES[0]!);
    assert.deepEqual(generateOffline(input), generateOffline(input));
  });
});
