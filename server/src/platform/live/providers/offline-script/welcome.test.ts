import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateWelcomeMessage } from './welcome.ts';

describe('generateWelcomeMessage', () => {
  it('introduces the persona and the number of scripted questions, never the scenario title', () => {
    const text = generateWelcomeMessage({
      personaName: 'Jane Doe',
      jobTitle: 'Engineering Manager',
      scenarioName: 'Backend Engineer Interview',
      scenarioType: 'interview',
      prompt: '## Questions\n1. Why this job?\n2. What is your best project?',
    });
    assert.match(text, /Jane Doe/);
    assert.match(text, /Engineering Manager/);
    assert.doesNotMatch(text, /Backend Engineer Interview|Welcome to/);
    assert.match(text, /two questions/);
  });

  it('works without a job title or a script when the persona leads', () => {
    for (const scenarioType of ['interview', 'upskill', 'one-on-one']) {
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

  it('picks up the phone in a role-play, in its manner, without the title or agenda', () => {
    const base = {
      personaName: 'Linda Okafor',
      jobTitle: 'CFO',
      scenarioName: 'FlowLedger renewal: skeptical CFO',
      scenarioType: 'roleplay',
      prompt: '## Agenda\n- Price rise\n- Seats\n\nYou are Linda, CFO. The rep calls you about the renewal.',
    };
    const neutral = generateWelcomeMessage(base);
    assert.equal(neutral, 'Hello, Linda Okafor speaking.');
    const friendly = generateWelcomeMessage({ ...base, demeanor: 'friendly' });
    assert.match(friendly, /^Hi, Linda here!/);
    for (const text of [neutral, friendly]) assert.doesNotMatch(text, /FlowLedger|Agenda|Price rise|Welcome/);
  });

  it('places the call when the persona is the caller', () => {
    const text = generateWelcomeMessage({
      personaName: 'Margaret Ellis',
      jobTitle: null,
      scenarioName: 'Billing complaint',
      scenarioType: 'roleplay',
      prompt: 'Margaret is calling about a bill she thinks is wrong.',
      demeanor: 'empathetic',
    });
    assert.equal(text, "Hello, it's Margaret. Is now a good time?");
  });
});
