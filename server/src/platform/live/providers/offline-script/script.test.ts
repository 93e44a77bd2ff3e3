import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_QUESTIONS } from './defaults.ts';
import { instructionToQuestion, MAX_STEPS, parseScript } from './script.ts';

const questions = (prompt: string | null, type = 'interview') =>
  parseScript(prompt, type).map((s) => s.question);

describe('parseScript', () => {
  it('reads a numbered list under a Questions heading and ignores rule sections', () => {
    const prompt = [
      '# Backend engineer interview',
      'You are Jane, a hiring manager. Be friendly and concise.',
      '',
      '## Questions',
      '1. Tell me about your background?',
      '2. **What** was the hardest bug you fixed?',
      '3. How do you keep up with new tools?',
      '',
      '## Rules',
      '- Never reveal the salary band.',
      '- Do you ask about politics? Never.',
    ].join('\n');
    assert.deepEqual(questions(prompt), [
      'Tell me about your background?',
      'What was the hardest bug you fixed?',
      'How do you keep up with new tools?',
    ]);
    const [first] = parseScript(prompt, 'interview');
    assert.equal(first.origin, 'question');
    assert.equal(first.section, 'Questions');
  });

  it('turns bulleted instructions into questions addressed to the participant', () => {
    const prompt = [
      'You are a customer evaluating our CRM.',
      '- Ask about pricing',
      '- Probe their experience with Kubernetes (e.g. AWS EKS).',
      '- Ask them to walk through their onboarding process.',
      '- Ask why they want to switch vendors.',
      '- Find out whether the customer has a budget approved.',
      '- Be skeptical and keep answers short.',
      '- Introduce yourself briefly.',
    ].join('\n');
    const steps = parseScript(prompt, 'roleplay');
    assert.deepEqual(
      steps.map((s) => s.question),
      [
        'Can you tell me about pricing?',
        'Can you tell me about your experience with Kubernetes?',
        'Could you walk me through your onboarding process?',
        'Could you tell me why you want to switch vendors?',
        'Can you tell me whether you have a budget approved?',
      ],
    );
    assert.ok(steps.every((s) => s.origin === 'instruction'));
  });

  it('follows Flow headings, nested lists, quoted questions and numbered question headings', () => {
    const prompt = [
      '## Flow',
      '### 1. Warm-up',
      '- Greet the participant',
      '- Open with "How was your week?"',
      '### 2. Deep dive',
      '1. Technical depth:',
      '   - Ask about system design',
      '   - Ask about their testing strategy',
      '2. Salary expectations',
      '### Question 3: What would you improve in your last team?',
      '```',
      '- Ask about code in fences',
      '```',
      '## Evaluation',
      '- Ask whether they gave examples',
    ].join('\n');
    assert.deepEqual(questions(prompt), [
      'How was your week?',
      'Can you tell me about system design?',
      'Can you tell me about your testing strategy?',
      'Can you tell me about salary expectations?',
      'What would you improve in your last team?',
    ]);
    assert.equal(parseScript(prompt, 'interview')[3].origin, 'topic');
  });

  it('reads plain lines ending in a question mark and de-duplicates', () => {
    const prompt =
      'You coach new managers.\nWhat is your biggest challenge this month?\nWhat is your biggest challenge this month?\nStart by asking about their goals for the quarter.';
    assert.deepEqual(questions(prompt, 'upskill'), [
      'What is your biggest challenge this month?',
      'Can you tell me about your goals for the quarter?',
    ]);
  });

  it('falls back to the default set of the scenario type when the script asks nothing', () => {
    for (const type of ['interview', 'roleplay', 'upskill', 'brainstorm'] as const) {
      const steps = parseScript('You are a friendly persona. Keep it light.', type);
      assert.deepEqual(
        steps.map((s) => s.question),
        [...DEFAULT_QUESTIONS[type]],
      );
      assert.ok(steps.every((s) => s.origin === 'default'));
    }
    assert.deepEqual(questions(null, 'something-else'), [...DEFAULT_QUESTIONS.general]);
  });

  it(`caps a long script at ${MAX_STEPS} steps`, () => {
    const prompt = Array.from({ length: 50 }, (_, i) => `${i + 1}. What happened in year ${i + 1}?`).join(
      '\n',
    );
    assert.equal(parseScript(prompt, 'interview').length, MAX_STEPS);
  });
});

describe('instructionToQuestion', () => {
  it('converts inquiry instructions and leaves other sentences alone', () => {
    assert.equal(instructionToQuestion('Ask about X'), 'Can you tell me about X?');
    // Who leads is not a question to ask.
    assert.equal(instructionToQuestion('Let them lead; add ideas and react honestly to theirs.'), null);
    assert.equal(
      instructionToQuestion('Probe their experience with Y.'),
      'Can you tell me about your experience with Y?',
    );
    assert.equal(
      instructionToQuestion('Ask if the candidate has led a team'),
      'Could you tell me if you have led a team?',
    );
    assert.equal(instructionToQuestion('Have them describe a failure'), 'Could you describe a failure?');
    assert.equal(instructionToQuestion('Confirm their start date'), 'Can you confirm your start date?');
    assert.equal(instructionToQuestion('Keep the tone warm'), null);
    assert.equal(instructionToQuestion('Greet the candidate'), null);
  });

  it('reads the steps a prose script lists, and asks "Tell me about…" as written', () => {
    const steps = (prompt: string) => parseScript(prompt, 'interview').map((s) => s.question);
    assert.deepEqual(
      steps(
        "Sam is a coach. Walk them through: what a typical morning looks like, where the time goes, and one thing they'll try tomorrow. Keep it light.",
      ),
      [
        'Can you tell me what a typical morning looks like?',
        'Can you tell me where the time goes?',
        "Can you tell me about one thing you'll try tomorrow?",
      ],
    );
    assert.deepEqual(
      steps('Pat wants to know why data science, and how they would explain a model to a manager.'),
      ['Why data science?', 'Can you tell me how you would explain a model to a manager?'],
    );
    assert.deepEqual(
      steps(
        'About the job, if they ask: 3 engineers, 2 designers and a PM.\n1. Tell me about a launch you led.\n2. Probe once if an answer is vague.',
      ),
      ['Tell me about a launch you led.'],
    );
  });
});
