import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateWelcomeMessage } from './welcome.ts';

describe('generateWelcomeMessage', () => {
  it('introduces the persona, the scenario and the number of scripted questions', () => {
    const text = generateWelcomeMessage({
      personaName: 'Jane Doe',
      jobTitle: 'Engineering Manager',
      scenarioName: 'Backend Engineer Interview',
      scenarioType: 'interview',
      prompt: '## Questions\n1. Why this job?\n2. What is your best project?',
    });
    assert.match(text, /Jane Doe/);
    assert.match(text, /Engineering Manager/);
    assert.match(text, /Backend Engineer Interview/);
    assert.match(text, /two questions/);
  });

  it('works without a job title or a script, for every scenario type', () => {
    for (const scenarioType of ['interview', 'roleplay', 'upskill', 'brainstorm']) {
      const text = generateWelcomeMessage({
        personaName: 'Max',
        jobTitle: null,
        scenarioName: 'Practice',
        scenarioType,
        prompt: null,
      });
      assert.match(text, /^Hi, I'm Max\./);
      assert.match(text, /\?$/);
    }
  });
});
