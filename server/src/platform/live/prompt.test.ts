import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildSystemPrompt, type PromptInput } from './prompt.ts';

const input = (overrides: Partial<PromptInput> = {}): PromptInput => ({
  persona: {
    name: 'Jane Doe',
    job_title: 'Engineering Manager',
    demeanor: 'friendly',
    background: 'Hired forty engineers.',
  },
  scenario: {
    name: 'Backend interview',
    type: 'interview',
    prompt: '## Questions\n1. Ask about X.',
    description: null,
  },
  participantName: 'Sam',
  noteContext: 'Focus on databases.',
  memories: ['Prefers Go.', 'Lives in Lisbon.'],
  guardrails: '## Guardrails\n\nNever discuss salary.',
  tools: { endCall: true, webSearch: true, customFunctions: ['lookup_order'] },
  ...overrides,
});

describe('buildSystemPrompt', () => {
  it('puts persona, script, note, memories, tools in order and the guardrails block last', () => {
    const prompt = buildSystemPrompt(input());
    assert.ok(prompt.startsWith('You are Jane Doe, Engineering Manager. Your demeanor is friendly.'));
    const order = [
      'Hired forty',
      'with Sam',
      '## Script',
      'Focus on databases.',
      '- Prefers Go.',
      '## Tools',
      '## Guardrails',
    ];
    const positions = order.map((text) => prompt.indexOf(text));
    assert.ok(
      positions.every((p) => p >= 0),
      JSON.stringify(positions),
    );
    assert.deepEqual(
      [...positions].sort((a, b) => a - b),
      positions,
    );
    assert.ok(prompt.endsWith('Never discuss salary.'));
    assert.match(prompt, /lookup_order/);
    assert.match(prompt, /web_search/);
  });

  it('leaves out what is not there', () => {
    const prompt = buildSystemPrompt(
      input({
        persona: null,
        noteContext: null,
        memories: [],
        guardrails: null,
        participantName: null,
        tools: { endCall: true, webSearch: false, customFunctions: [] },
      }),
    );
    assert.ok(prompt.startsWith('You are the host of this session.'));
    for (const absent of ['## Session context', '## What you remember', '## Guardrails', 'web_search']) {
      assert.ok(!prompt.includes(absent), absent);
    }
    assert.match(prompt, /with a participant\./);
  });
});
