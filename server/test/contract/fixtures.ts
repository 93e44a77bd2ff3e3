/**
 * A small OpenAPI 3.1 document with what the breaking-change rules look at: a component reached
 * through `$ref`, parameters, a request body, response headers, enums, nullable types and a webhook.
 * Tests mutate a copy of it, one kind of change each.
 */
// Test documents are mutated freely.
export type Doc = any;

export function baseDocument(version = '1.0.0'): Doc {
  return {
    openapi: '3.1.0',
    info: { title: 'Things', version },
    paths: {
      '/things': {
        get: {
          parameters: [
            {
              name: 'limit',
              in: 'query',
              required: false,
              schema: { type: 'integer', minimum: 1, maximum: 100 },
            },
            { name: 'status', in: 'query', schema: { type: 'string', enum: ['open', 'closed'] } },
          ],
          responses: {
            200: {
              description: 'A page of things',
              headers: { 'RateLimit-Remaining': { schema: { type: 'integer' } } },
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['data', 'has_more'],
                    properties: {
                      data: { type: 'array', items: { $ref: '#/components/schemas/Thing' } },
                      has_more: { type: 'boolean' },
                    },
                  },
                },
              },
            },
            '4XX': { $ref: '#/components/responses/Error' },
          },
        },
        post: {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateThing' } } },
          },
          responses: {
            201: {
              description: 'Created',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
            },
          },
        },
      },
      '/things/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        get: {
          responses: {
            200: {
              description: 'A thing',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
            },
          },
        },
        delete: { responses: { 204: { description: 'Deleted' } } },
      },
    },
    webhooks: {
      'thing.created': {
        post: {
          parameters: [
            { name: 'Service-Signature', in: 'header', required: true, schema: { type: 'string' } },
          ],
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['type', 'data'],
                  properties: {
                    type: { const: 'thing.created' },
                    data: { $ref: '#/components/schemas/Thing' },
                  },
                },
              },
            },
          },
          responses: { 200: { description: 'Received' } },
        },
      },
    },
    components: {
      schemas: {
        Thing: {
          type: 'object',
          required: ['id', 'status', 'name'],
          properties: {
            id: { type: 'string', description: 'The id' },
            status: { type: 'string', enum: ['open', 'closed'] },
            name: { type: 'string' },
            note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
            parent: { $ref: '#/components/schemas/Thing' },
          },
        },
        CreateThing: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 100 },
            status: { type: 'string', enum: ['open', 'closed'] },
            note: { type: ['string', 'null'] },
            size: { type: 'number' },
          },
        },
      },
      responses: {
        Error: {
          description: 'An error',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['error'],
                properties: { error: { type: 'object', properties: { code: { type: 'string' } } } },
              },
            },
          },
        },
      },
    },
  };
}

export function mutated(change: (doc: Doc) => void, version?: string): Doc {
  const doc = baseDocument(version);
  change(doc);
  return doc;
}
