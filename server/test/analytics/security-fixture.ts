import type { SecurityFixture } from '../security.ts';

export const analyticsSecurity: SecurityFixture = {
  resource: 'analytics',
  routes: {
    'GET /analytics/scenarios': { noForeignIds: 'the credential’s own workspace’s scenarios' },
    'GET /analytics/scenarios/{scenario_id}': {},
    'GET /analytics/scenarios/{scenario_id}/results.csv': {},
  },
  async setup(ws) {
    const scenario_id = (await ws.call('GET', '/scenarios')).json().data[0].id;
    return { scenario_id };
  },
};
