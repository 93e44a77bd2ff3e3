// A mock interview: the interviewer the role calls for, questions chosen by priority to fit the
// duration, and goals that score the candidate.
import type { GenerationInput } from '../schema.ts';
import type { TextFacts } from './facts.ts';
import { type Plan, questionCount } from './plan.ts';
import { lowerFirst } from './text.ts';

export function interviewPlan(facts: TextFacts, input: GenerationInput): Plan {
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
  facts.experience.slice(0, 2).forEach((item, index) => {
    pool.push({
      priority: [4, 11][index]!,
      question: `Your résumé mentions "${lowerFirst(item)}". What was your part in that, and what came out of it?`,
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
  // "a senior Staff Engineer" says it twice: a title with its own level keeps it.
  const levelled = /\b(?:senior|sr|staff|principal|lead|junior|jr|intern|graduate|trainee|mid-level)\b/i.test(
    role,
  );
  const seniorityLabel =
    seniorityWord && !levelled && facts.seniority !== 'leadership' ? `${seniorityWord} ` : '';
  const titled = `${seniorityLabel}${role}`;
  const position = facts.role
    ? `${/^[aeiou]/i.test(titled) ? 'an' : 'a'} ${titled} position${facts.company ? ` at ${company}` : ''}`
    : `a position${facts.company ? ` at ${company}` : ''}`;
  return {
    personaTitle: facts.company ? `${personaTitle}, ${company}` : personaTitle,
    demeanor: technical ? 'analytical' : facts.seniority === 'junior' ? 'friendly' : 'curious',
    name: `${roleName} interview${facts.company ? ` — ${company}` : ''}`,
    description: `A ${input.duration}-minute mock interview for ${position}${facts.skills.length ? `, covering ${facts.skills.slice(0, 3).join(', ')}` : ''}.`,
    roleLine: `You are interviewing the participant for ${position}.`,
    context: [
      `Role: ${role}${seniorityWord ? ` (${seniorityWord})` : ''}`,
      ...(facts.company ? [`Company: ${company}`] : []),
      ...(facts.yearsOfExperience ? [`Experience asked for: about ${facts.yearsOfExperience}+ years`] : []),
      ...(facts.skills.length ? [`Key skills: ${facts.skills.slice(0, 8).join(', ')}`] : []),
      ...facts.requirements.slice(0, 5).map((r) => `Requirement: ${r}`),
      ...facts.responsibilities.slice(0, 4).map((r) => `Responsibility: ${r}`),
      ...facts.experience.slice(0, 4).map((item) => `From the candidate’s résumé: ${item}`),
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
