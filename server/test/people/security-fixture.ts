import type { SecurityFixture } from '../security.ts';

export const peopleSecurity: SecurityFixture = {
  resource: 'people',
  routes: {
    'GET /people': { noForeignIds: 'the credential’s own workspace’s people' },
    'GET /people/groups': { noForeignIds: 'the credential’s own workspace’s groups' },
    'POST /people': {
      body: () => ({ name: 'Sam Lee' }),
      noForeignIds: 'creates in the credential’s workspace',
    },
    'GET /people/{person_id}': {},
    'PATCH /people/{person_id}': { body: () => ({ name: 'Sam Lee-Park' }) },
    'DELETE /people/{person_id}': {},
    'GET /people/{person_id}/progress': {},
  },
  async setup(ws) {
    const person = (await ws.call('POST', '/people', { name: 'Priya Raman' })).json().data;
    return { person_id: person.id };
  },
};
