import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { AVATARS, DEFAULT_VOICE, VOICES } from '../../src/platform/personas/catalog.ts';
import { personaBody } from '../fixtures/bodies.ts';
import { expectError, ok, startPlatform } from '../harness.ts';

const t = await startPlatform();
after(() => t.close());
// Shared workspaces keep the file fast; every assertion is relative to what its test created.
const a = await t.workspace();
const b = await t.workspace();

const FEMALE_AVATAR = AVATARS.find((avatar) => avatar.gender === 'female')!;
const MALE_AVATAR = AVATARS.find((avatar) => avatar.gender === 'male')!;
const BRITISH_VOICE = VOICES.find((voice) => voice.language === 'en-GB')!;

describe('personas', () => {
  test('create returns every request field plus id, avatar_url and timestamps', async () => {
    const body = personaBody({ voice_id: BRITISH_VOICE.id, avatar_id: FEMALE_AVATAR.id });
    const persona = ok(await a.call('POST', '/personas', body), 201);
    for (const [field, value] of Object.entries(body)) assert.deepEqual(persona[field], value, field);
    assert.match(persona.id, /^[0-9a-f-]{36}$/);
    assert.equal(persona.avatar_url, `${t.deps.config.publicUrl}/assets/avatars/${FEMALE_AVATAR.file}`);
    assert.ok(persona.created_at && persona.updated_at);
    assert.deepEqual(ok(await a.call('GET', `/personas/${persona.id}`)), persona);
  });

  test('a persona without voice_id gets the default voice of its gender', async () => {
    const female = ok(await a.call('POST', '/personas', personaBody({ gender: 'female' })), 201);
    const male = ok(await a.call('POST', '/personas', personaBody({ gender: 'male' })), 201);
    const unspecified = ok(await a.call('POST', '/personas', { name: 'Sam', job_title: 'Coach' }), 201);
    assert.equal(female.voice_id, DEFAULT_VOICE.female);
    assert.equal(male.voice_id, DEFAULT_VOICE.male);
    assert.equal(unspecified.voice_id, DEFAULT_VOICE.unspecified);
    assert.equal(unspecified.demeanor, 'neutral');
    assert.equal(unspecified.gender, null);
    // A default voice follows a gender change; a chosen one stays.
    const updated = ok(await a.call('PUT', `/personas/${female.id}`, { gender: 'male' }));
    assert.equal(updated.voice_id, DEFAULT_VOICE.male);
    const chosen = ok(await a.call('POST', '/personas', personaBody({ voice_id: BRITISH_VOICE.id })), 201);
    assert.equal(
      ok(await a.call('PUT', `/personas/${chosen.id}`, { gender: 'male' })).voice_id,
      BRITISH_VOICE.id,
    );
    assert.equal(
      ok(await a.call('PUT', `/personas/${chosen.id}`, { voice_id: null })).voice_id,
      DEFAULT_VOICE.male,
    );
  });

  test('demeanor and gender enums, required fields and unknown catalog ids are refused', async () => {
    expectError(await a.call('POST', '/personas', personaBody({ demeanor: 'grumpy' })), 400, 'demeanor');
    expectError(await a.call('POST', '/personas', personaBody({ gender: 'other' })), 400, 'gender');
    expectError(await a.call('POST', '/personas', { job_title: 'x' }), 400, 'name');
    expectError(await a.call('POST', '/personas', { name: 'x' }), 400, 'job_title');
    expectError(
      await a.call('POST', '/personas', personaBody({ voice_id: crypto.randomUUID() })),
      400,
      'voice_id',
    );
    expectError(await a.call('POST', '/personas', personaBody({ avatar_id: 'nope' })), 400, 'avatar_id');
    expectError(
      await a.call('POST', '/personas', personaBody({ membership_id: a.accountId })),
      400,
      'membership_id',
    );
    expectError(await a.call('POST', '/personas', personaBody({ name: 'x'.repeat(101) })), 400, 'name');
    ok(
      await a.call('POST', '/personas', personaBody({ name: 'x'.repeat(100), job_title: 'j'.repeat(100) })),
      201,
    );
    expectError(
      await a.call('POST', '/personas', personaBody({ job_title: 'j'.repeat(101) })),
      400,
      'job_title',
    );
    ok(await a.call('POST', '/personas', personaBody({ background: 'b'.repeat(5000) })), 201);
    expectError(
      await a.call('POST', '/personas', personaBody({ background: 'b'.repeat(5001) })),
      400,
      'background',
    );
    // Spaces only pass a length check but name nobody.
    expectError(await a.call('POST', '/personas', personaBody({ name: '   ' })), 400, 'name');
    expectError(await a.call('POST', '/personas', personaBody({ job_title: ' \t ' })), 400, 'job_title');
    const persona = ok(await a.call('POST', '/personas', personaBody()), 201);
    expectError(await a.call('PUT', `/personas/${persona.id}`, { name: '  ' }), 400, 'name');
    expectError(await a.call('PUT', `/personas/${persona.id}`, { job_title: '  ' }), 400, 'job_title');
    expectError(await a.call('PUT', `/personas/${persona.id}`, { voice_id: '' }), 400, 'voice_id');
    expectError(await a.call('PUT', `/personas/${persona.id}`, { voice_id: 'nope' }), 400, 'voice_id');
    assert.deepEqual(
      ok(await a.call('GET', `/personas/${persona.id}`)),
      persona,
      'refused updates change nothing',
    );
    for (const demeanor of [
      'friendly',
      'analytical',
      'empathetic',
      'curious',
      'enthusiastic',
      'critical',
      'casual',
      'blunt',
      'assertive',
      'neutral',
    ]) {
      ok(await a.call('POST', '/personas', personaBody({ demeanor })), 201);
    }
  });

  test('PUT is partial; the avatar sets image and gender and can be cleared', async () => {
    const persona = ok(await a.call('POST', '/personas', personaBody({ gender: 'female' })), 201);
    const renamed = ok(await a.call('PUT', `/personas/${persona.id}`, { job_title: 'CTO' }));
    assert.equal(renamed.job_title, 'CTO');
    assert.equal(renamed.name, persona.name);
    assert.equal(renamed.background, persona.background);

    const withAvatar = ok(
      await a.call('PUT', `/personas/${persona.id}/avatar`, { avatar_id: MALE_AVATAR.id }),
    );
    assert.equal(withAvatar.avatar_id, MALE_AVATAR.id);
    assert.equal(withAvatar.gender, 'male');
    assert.equal(withAvatar.voice_id, DEFAULT_VOICE.male);
    assert.ok(withAvatar.avatar_url.endsWith(`/assets/avatars/${MALE_AVATAR.file}`));
    expectError(
      await a.call('PUT', `/personas/${persona.id}/avatar`, { avatar_id: crypto.randomUUID() }),
      400,
      'avatar_id',
    );
    expectError(await a.call('PUT', `/personas/${persona.id}/avatar`, {}), 400, 'avatar_id');

    const cleared = ok(await a.call('DELETE', `/personas/${persona.id}/avatar`));
    assert.equal(cleared.avatar_id, null);
    assert.equal(cleared.avatar_url, null);
    assert.equal(cleared.gender, 'male');
  });

  test('list: an array, newest first; a page envelope when asked', async () => {
    const seeded = ok<unknown[]>(await a.call('GET', '/personas')).length;
    const created = [];
    for (let i = 0; i < 3; i += 1) {
      t.clock.advance(1000);
      created.push(ok(await a.call('POST', '/personas', personaBody({ name: `P${i}` })), 201));
    }
    const all = ok<{ id: string }[]>(await a.call('GET', '/personas'));
    assert.equal(all.length, seeded + 3);
    assert.deepEqual(
      all.slice(0, 3).map((p) => p.id),
      created.reverse().map((p) => p.id),
    );
    const first = ok(await a.call('GET', '/personas?limit=2'));
    assert.equal(first.object, 'list');
    assert.equal(first.data.length, 2);
    assert.equal(first.has_more, true);
    const second = ok(await a.call('GET', `/personas?limit=2&cursor=${first.next_cursor}`));
    assert.equal(second.data[0].id, all[2]!.id);
    expectError(await a.call('GET', '/personas?limit=101'), 400, 'limit');
    expectError(await a.call('GET', '/personas?cursor=garbage'), 400, 'cursor');
  });

  test('delete: refused while a scenario uses the persona, then removed', async () => {
    const persona = ok(await a.call('POST', '/personas', personaBody()), 201);
    const scenario = ok(
      await a.call('POST', '/scenarios', { name: 'S', type: 'interview', persona_id: persona.id }),
      201,
    );
    expectError(await a.call('DELETE', `/personas/${persona.id}`), 409, 'id');
    ok(await a.call('DELETE', `/scenarios/${scenario.id}`));
    assert.deepEqual(ok(await a.call('DELETE', `/personas/${persona.id}`)), {
      id: persona.id,
      object: 'persona',
      deleted: true,
    });
    expectError(await a.call('GET', `/personas/${persona.id}`), 404, 'id');
  });

  test('another workspace gets 404 for every persona route', async () => {
    const persona = ok(await a.call('POST', '/personas', personaBody()), 201);
    for (const [method, url, body] of [
      ['GET', `/personas/${persona.id}`],
      ['PUT', `/personas/${persona.id}`, { name: 'Stolen' }],
      ['DELETE', `/personas/${persona.id}`],
      ['PUT', `/personas/${persona.id}/avatar`, { avatar_id: FEMALE_AVATAR.id }],
      ['DELETE', `/personas/${persona.id}/avatar`],
    ] as const) {
      expectError(await b.call(method, url, body), 404, 'id');
    }
    assert.ok(!ok<{ id: string }[]>(await b.call('GET', '/personas')).some((p) => p.id === persona.id));
    expectError(
      await b.call('POST', '/scenarios', { name: 'S', type: 'interview', persona_id: persona.id }),
      400,
      'persona_id',
    );
    expectError(await a.call('GET', '/personas/not-a-uuid'), 404, 'id');
  });
});

describe('voices and avatars', () => {
  test('catalog reads, with opt-in pagination', async () => {
    const voices = ok(await a.call('GET', '/voices'));
    assert.equal(voices.data.length, VOICES.length);
    for (const voice of voices.data) {
      assert.match(voice.id, /^[0-9a-f-]{36}$/);
      assert.ok(['male', 'female'].includes(voice.gender));
      assert.ok(voice.language && voice.browser_voice_hints.length > 0 && voice.tts_voice);
    }
    assert.ok(voices.data.some((v: { gender: string }) => v.gender === 'male'));
    assert.ok(voices.data.some((v: { gender: string }) => v.gender === 'female'));
    assert.deepEqual(ok(await a.call('GET', `/voices/${VOICES[2]!.id}`)), voices.data[2]);
    expectError(await a.call('GET', `/voices/${crypto.randomUUID()}`), 404, 'id');

    const page = ok(await a.call('GET', '/voices?limit=4'));
    assert.equal(page.data.length, 4);
    assert.equal(page.has_more, true);
    const rest = ok(await a.call('GET', `/voices?limit=4&cursor=${page.next_cursor}`));
    assert.equal(rest.data.length, VOICES.length - 4);
    assert.equal(rest.has_more, false);
    assert.equal(rest.next_cursor, null);

    const avatars = ok(await a.call('GET', '/avatars'));
    assert.equal(avatars.data.length, AVATARS.length);
    const avatar = ok(await a.call('GET', `/avatars/${AVATARS[0]!.id}`));
    assert.equal(avatar.image_url, `${t.deps.config.publicUrl}/assets/avatars/${AVATARS[0]!.file}`);
    expectError(await a.call('GET', `/avatars/${crypto.randomUUID()}`), 404, 'id');
  });

  test('avatar images are served without credentials, only from the catalog', async () => {
    for (const avatar of AVATARS) {
      const response = await t.app.inject({ method: 'GET', url: `/assets/avatars/${avatar.file}` });
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /^image\/svg\+xml/);
      assert.match(response.body, /^<svg[\s\S]*<\/svg>\s*$/);
      assert.doesNotMatch(response.body, /<script/i);
    }
    const missing = await t.app.inject({ method: 'GET', url: '/assets/avatars/..%2f..%2fpackage.json' });
    assert.equal(missing.statusCode, 404);
  });
});
