import { AVATARS, VOICES } from '../../src/platform/personas/catalog.ts';
import { personaBody } from '../fixtures/bodies.ts';
import { ok } from '../harness.ts';
import type { SecurityFixture } from '../security.ts';

const CATALOG = 'voices and avatars are one catalog shared by every workspace (docs/authoring.md)';

export const personasSecurity: SecurityFixture = {
  resource: 'personas, voices and avatars',
  routes: {
    'POST /personas': { body: () => personaBody(), noForeignIds: 'creates in the caller’s workspace' },
    'GET /personas': { noForeignIds: 'lists the caller’s workspace' },
    'GET /personas/{id}': {},
    'PUT /personas/{id}': { body: () => personaBody() },
    'DELETE /personas/{id}': {},
    'PUT /personas/{id}/avatar': { body: () => ({ avatar_id: AVATARS[0]!.id }) },
    'DELETE /personas/{id}/avatar': {},
    'GET /voices': { noForeignIds: CATALOG },
    'GET /voices/{id}': { params: { id: 'voiceId' }, noForeignIds: CATALOG },
    'GET /voices/{id}/sample': { params: { id: 'voiceId' }, noForeignIds: CATALOG },
    'GET /avatars': { noForeignIds: CATALOG },
    'GET /avatars/{id}': { params: { id: 'avatarId' }, noForeignIds: CATALOG },
  },
  async setup(ws) {
    const persona = ok(await ws.call('POST', '/personas', personaBody()), 201);
    return { id: persona.id, voiceId: VOICES[0]!.id, avatarId: AVATARS[0]!.id };
  },
};
