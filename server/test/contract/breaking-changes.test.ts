import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffContracts } from '../../src/contract/breaking-changes.ts';
import { baseDocument, type Doc, mutated } from './fixtures.ts';

const codesOf = (after: Doc, before: Doc = baseDocument()) => {
  const changes = diffContracts(before, after);
  return {
    breaking: changes.filter((c) => c.breaking).map((c) => c.code),
    additive: changes.filter((c) => !c.breaking).map((c) => c.code),
    changes,
  };
};

const breakingKinds: [string, string, (doc: Doc) => void][] = [
  ['path removed', 'path-removed', (d) => delete d.paths['/things/{id}']],
  ['operation removed', 'operation-removed', (d) => delete d.paths['/things/{id}'].delete],
  ['webhook removed', 'webhook-removed', (d) => delete d.webhooks['thing.created']],
  ['success response removed', 'response-removed', (d) => delete d.paths['/things'].post.responses[201]],
  [
    'response field removed (in a component)',
    'response-field-removed',
    (d) => delete d.components.schemas.Thing.properties.name,
  ],
  [
    'response field made optional',
    'response-field-optional',
    (d) => (d.components.schemas.Thing.required = ['id', 'status']),
  ],
  [
    'response header removed',
    'response-field-removed',
    (d) => (d.paths['/things'].get.responses[200].headers = {}),
  ],
  [
    'webhook payload field removed',
    'response-field-removed',
    (d) =>
      delete d.webhooks['thing.created'].post.requestBody.content['application/json'].schema.properties.type,
  ],
  [
    'webhook header removed',
    'response-field-removed',
    (d) => (d.webhooks['thing.created'].post.parameters = []),
  ],
  [
    'response enum value removed',
    'enum-value-removed',
    (d) => (d.components.schemas.Thing.properties.status.enum = ['open']),
  ],
  [
    'request enum value removed',
    'enum-value-removed',
    (d) => (d.components.schemas.CreateThing.properties.status.enum = ['open']),
  ],
  [
    'parameter enum value removed',
    'enum-value-removed',
    (d) => (d.paths['/things'].get.parameters[1].schema.enum = ['open']),
  ],
  [
    'request field made required',
    'request-field-required',
    (d) => d.components.schemas.CreateThing.required.push('status'),
  ],
  [
    'request field added as required',
    'request-field-required',
    (d) => {
      d.components.schemas.CreateThing.properties.owner = { type: 'string' };
      d.components.schemas.CreateThing.required.push('owner');
    },
  ],
  [
    'request field removed (unknown fields are refused)',
    'request-field-removed',
    (d) => delete d.components.schemas.CreateThing.properties.size,
  ],
  [
    'parameter made required',
    'parameter-required',
    (d) => (d.paths['/things'].get.parameters[0].required = true),
  ],
  [
    'parameter added as required',
    'parameter-required',
    (d) =>
      d.paths['/things'].get.parameters.push({
        name: 'team',
        in: 'query',
        required: true,
        schema: { type: 'string' },
      }),
  ],
  ['parameter removed', 'parameter-removed', (d) => d.paths['/things'].get.parameters.pop()],
  [
    'request body added as required',
    'request-field-required',
    (d) => {
      d.paths['/things/{id}'].delete.requestBody = {
        required: true,
        content: { 'application/json': { schema: { type: 'object' } } },
      };
    },
  ],
  [
    'request type narrowed (number to integer)',
    'request-type-narrowed',
    (d) => (d.components.schemas.CreateThing.properties.size.type = 'integer'),
  ],
  [
    'request type narrowed (null no longer accepted)',
    'request-type-narrowed',
    (d) => (d.components.schemas.CreateThing.properties.note.type = 'string'),
  ],
  [
    'request bound tightened',
    'request-type-narrowed',
    (d) => (d.components.schemas.CreateThing.properties.name.maxLength = 50),
  ],
  [
    'parameter bound tightened',
    'request-type-narrowed',
    (d) => (d.paths['/things'].get.parameters[0].schema.maximum = 50),
  ],
  [
    'request value limited to an enum',
    'request-type-narrowed',
    (d) => (d.components.schemas.CreateThing.properties.name.enum = ['a']),
  ],
  [
    'response type changed',
    'response-type-changed',
    (d) => (d.components.schemas.Thing.properties.id.type = 'integer'),
  ],
  [
    'response type widened to null',
    'response-type-changed',
    (d) => (d.components.schemas.Thing.properties.name = { type: ['string', 'null'] }),
  ],
];

for (const [kind, code, change] of breakingKinds) {
  test(`breaking: ${kind}`, () => {
    const { breaking, changes } = codesOf(mutated(change));
    assert.ok(breaking.includes(code), `expected ${code}, got ${JSON.stringify(changes)}`);
  });
}

// The request body was absent before, so "made required" needs a body that was optional first.
test('breaking: an optional request body made required', () => {
  const before = mutated((d) => (d.paths['/things'].post.requestBody.required = false));
  assert.deepEqual(codesOf(baseDocument(), before).breaking, ['request-field-required']);
});

const additiveKinds: [string, (doc: Doc) => void][] = [
  ['path added', (d) => (d.paths['/others'] = { get: { responses: { 200: { description: 'ok' } } } })],
  ['operation added', (d) => (d.paths['/things/{id}'].patch = { responses: { 200: { description: 'ok' } } })],
  ['webhook added', (d) => (d.webhooks['thing.deleted'] = structuredClone(d.webhooks['thing.created']))],
  [
    'optional request field added',
    (d) => (d.components.schemas.CreateThing.properties.colour = { type: 'string' }),
  ],
  ['request field made optional', (d) => (d.components.schemas.CreateThing.required = [])],
  [
    'request type widened',
    (d) => (d.components.schemas.CreateThing.properties.size.type = ['number', 'string']),
  ],
  ['request bound loosened', (d) => (d.components.schemas.CreateThing.properties.name.maxLength = 200)],
  [
    'request enum value added',
    (d) => d.components.schemas.CreateThing.properties.status.enum.push('archived'),
  ],
  ['response field added', (d) => (d.components.schemas.Thing.properties.colour = { type: 'string' })],
  ['response enum value added', (d) => d.components.schemas.Thing.properties.status.enum.push('archived')],
  [
    'response type narrowed (no longer null)',
    (d) => (d.components.schemas.Thing.properties.note = { type: 'string' }),
  ],
  [
    'optional parameter added',
    (d) => d.paths['/things'].get.parameters.push({ name: 'q', in: 'query', schema: { type: 'string' } }),
  ],
  [
    'response header added',
    (d) =>
      (d.paths['/things'].get.responses[200].headers['RateLimit-Reset'] = { schema: { type: 'integer' } }),
  ],
  ['error response removed', (d) => delete d.paths['/things'].get.responses['4XX']],
];

for (const [kind, change] of additiveKinds) {
  test(`passes: ${kind}`, () => {
    const { breaking, changes } = codesOf(mutated(change));
    assert.deepEqual(breaking, [], JSON.stringify(changes));
  });
}

test('wording, examples and moving a schema into components are not changes', () => {
  const after = mutated((d) => {
    d.info.description = 'Now described';
    d.components.schemas.Thing.properties.id.description = 'Another description';
    d.components.schemas.Thing.properties.id.examples = ['thg_1'];
    // Inline the request body's component and name the page response instead: same shapes.
    d.paths['/things'].post.requestBody.content['application/json'].schema = structuredClone(
      d.components.schemas.CreateThing,
    );
    d.components.schemas.ThingPage = d.paths['/things'].get.responses[200].content['application/json'].schema;
    d.paths['/things'].get.responses[200].content['application/json'].schema = {
      $ref: '#/components/schemas/ThingPage',
    };
  });
  assert.deepEqual(diffContracts(baseDocument(), after), []);
  assert.deepEqual(diffContracts(baseDocument(), baseDocument()), []);
});

test('OpenAPI 3.0 documents: nullable counts as the null type', () => {
  const before = mutated((d) => {
    d.openapi = '3.0.3';
    d.components.schemas.CreateThing.properties.note = { type: 'string', nullable: true };
  });
  const after = structuredClone(before);
  after.components.schemas.CreateThing.properties.note = { type: 'string' };
  assert.deepEqual(codesOf(after, before).breaking, ['request-type-narrowed']);
});

test('a schema that refers to itself is compared without looping', () => {
  const after = mutated((d) => delete d.components.schemas.Thing.properties.parent);
  const codes = codesOf(after).breaking;
  assert.ok(codes.length > 0 && codes.every((code) => code === 'response-field-removed'));
});

test('allOf parts are intersected and anyOf branches united before comparing', () => {
  const before = mutated((d) => {
    d.components.schemas.CreateThing.properties.size = {
      allOf: [{ type: 'number' }, { type: 'integer', maximum: 10 }],
    };
    d.components.schemas.CreateThing.properties.status = {
      anyOf: [{ const: 'open' }, { const: 'closed' }, { type: 'null' }],
    };
  });
  const same = structuredClone(before);
  same.components.schemas.CreateThing.properties.size = { type: 'integer', maximum: 10 };
  same.components.schemas.CreateThing.properties.status = {
    type: ['string', 'null'],
    enum: ['open', 'closed', null],
  };
  assert.deepEqual(diffContracts(before, same), []);
  const narrower = structuredClone(same);
  narrower.components.schemas.CreateThing.properties.status = { type: 'string', enum: ['open', 'closed'] };
  assert.ok(codesOf(narrower, before).breaking.includes('enum-value-removed'));
});
