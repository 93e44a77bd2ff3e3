import type { SecurityFixture } from '../security.ts';

export const assignmentsSecurity: SecurityFixture = {
  resource: 'assignments',
  routes: {
    'GET /assignments': { noForeignIds: 'the credential’s own workspace’s assignments' },
    'POST /assignments': {
      body: (ids) => ({ scenario_id: ids.scenario_id, person_ids: [ids.person_id] }),
      refs: ['scenario_id', 'person_id'],
      refsAnswer: { status: 400, because: 'ids in bodies answer 400 parameter_invalid naming the field' },
    },
    'GET /assignments/{assignment_id}': {},
    'PATCH /assignments/{assignment_id}': { body: () => ({ max_attempts: 2 }) },
    'DELETE /assignments/{assignment_id}': {},
    // A scenario's open link is practice given out, not authoring: assignments' scopes.
    'POST /scenarios/{scenario_id}/practice-link': { scopes: ['assignments:write'] },
    'GET /scenarios/{scenario_id}/practice-link': { scopes: ['assignments:read'] },
    'DELETE /scenarios/{scenario_id}/practice-link': { scopes: ['assignments:write'] },
  },
  async setup(ws) {
    const scenario_id = (await ws.call('GET', '/scenarios')).json().data[0].id;
    const person_id = (await ws.call('POST', '/people', { name: 'Sam Lee' })).json().data.id;
    const assignment = (
      await ws.call('POST', '/assignments', { scenario_id, person_ids: [person_id] })
    ).json().data;
    await ws.call('POST', `/scenarios/${scenario_id}/practice-link`);
    return { scenario_id, person_id, assignment_id: assignment.id };
  },
};
