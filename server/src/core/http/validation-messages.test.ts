// Validation errors read as plain words on a form and in an integrator's log, never as the
// validator's own phrasing ("must NOT have fewer than 8 characters").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validationToFieldErrors } from './error-handler.ts';

const messageOf = (keyword: string, params: Record<string, unknown>, path = '/password') =>
  validationToFieldErrors([{ instancePath: path, keyword, params, message: 'validator text' }], 'body')[0]!
    .message;

describe('validation messages', () => {
  it('says each broken rule in plain words, naming the parameter', () => {
    assert.equal(
      messageOf('minLength', { limit: 8 }),
      'Invalid password: must be at least 8 characters long.',
    );
    assert.equal(messageOf('minLength', { limit: 1 }, '/name'), 'Invalid name: must not be empty.');
    assert.equal(
      messageOf('maxLength', { limit: 200 }, '/name'),
      'Invalid name: must be at most 200 characters long.',
    );
    assert.equal(
      messageOf('maximum', { limit: 240, comparison: '<=' }, '/call_duration'),
      'Invalid call_duration: must be at most 240.',
    );
    assert.equal(messageOf('minItems', { limit: 1 }, '/goals'), 'Invalid goals: must have at least 1 item.');
    assert.equal(
      messageOf('type', { type: 'integer' }, '/goals/0/weight'),
      'Invalid goals[0].weight: must be a whole number.',
    );
    assert.equal(
      messageOf('format', { format: 'email' }, '/email'),
      'Invalid email: must be an e-mail address.',
    );
    assert.equal(
      messageOf('enum', { allowedValues: ['public', 'restricted'] }, '/visibility'),
      'Invalid visibility: must be one of "public", "restricted".',
    );
    for (const message of [
      messageOf('minLength', { limit: 8 }),
      messageOf('maxItems', { limit: 20 }, '/scopes'),
    ]) {
      assert.doesNotMatch(message, /must NOT|validator text/);
    }
  });

  it('says a union of literals, or a type or null, whole', () => {
    const union = (issues: Array<[string, Record<string, unknown>]>, path: string) =>
      validationToFieldErrors(
        issues.map(([keyword, params]) => ({
          instancePath: path,
          keyword,
          params,
          message: 'validator text',
        })),
        'body',
      )[0]!.message;
    assert.equal(
      union(
        [
          ['const', { allowedValue: 'public' }],
          ['const', { allowedValue: 'restricted' }],
          ['anyOf', {}],
        ],
        '/visibility',
      ),
      'Invalid visibility: must be one of "public", "restricted".',
    );
    assert.equal(
      union(
        [
          ['type', { type: 'string' }],
          ['type', { type: 'null' }],
          ['anyOf', {}],
        ],
        '/description',
      ),
      'Invalid description: must be a string or null.',
    );
    assert.equal(messageOf('type', { type: 'object' }, '/metadata'), 'Invalid metadata: must be an object.');
  });

  it("keeps the validator's text for a rule it has no words for", () => {
    assert.equal(messageOf('uniqueItems', { i: 1, j: 0 }, '/tags'), 'Invalid tags: validator text.');
  });
});
