import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type ApiClient, startPlatform, type TestPlatform } from '../harness.ts';
import { createGuardrail, uniqueName } from './helpers.ts';

let t: TestPlatform;
before(async () => {
  t = await startPlatform();
});
after(() => t.close());

describe('guardrail definitions', () => {
  test('create returns every field; get, list, patch and delete round-trip', async () => {
    const c = await t.workspace();
    const created = await createGuardrail(c, {
      guardrail_name: 'no-salary_Talk-1',
      guardrail_prompt: 'Never quote a salary.',
    });
    t.clock.advance(10);
    assert.match(created.id, /^[0-9a-f-]{36}$/);
    assert.equal(created.membership_id, c.membershipId);
    assert.equal(created.guardrail_name, 'no-salary_Talk-1');
    assert.equal(created.guardrail_prompt, 'Never quote a salary.');
    assert.equal(created.active, true);
    assert.ok(created.created_at && created.updated_at);

    const inactive = await createGuardrail(c, { active: false });
    assert.equal(inactive.active, false);

    const got = await c.call('GET', `/guardrails/${created.id}`);
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json().data, { ...created, scenarios: [] });

    t.clock.advance(1000);
    const patched = await c.call('PATCH', `/guardrails/${created.id}`, {
      guardrail_name: 'renamed',
      guardrail_prompt: 'Never quote a bonus either.',
      active: false,
    });
    assert.equal(patched.statusCode, 200, patched.body);
    const p = patched.json().data;
    assert.equal(p.guardrail_name, 'renamed');
    assert.equal(p.guardrail_prompt, 'Never quote a bonus either.');
    assert.equal(p.active, false);
    assert.notEqual(p.updated_at, created.updated_at);
    assert.equal(p.created_at, created.created_at);

    const list = await c.call('GET', '/guardrails');
    assert.equal(list.statusCode, 200);
    const body = list.json();
    assert.deepEqual(Object.keys(body), ['data']);
    assert.deepEqual(
      body.data.map((g: { id: string }) => g.id),
      [inactive.id, created.id],
      'newest first',
    );

    const deleted = await c.call('DELETE', `/guardrails/${created.id}`);
    assert.equal(deleted.statusCode, 204);
    assert.equal((await c.call('GET', `/guardrails/${created.id}`)).statusCode, 404);
    assert.equal((await c.call('DELETE', `/guardrails/${created.id}`)).statusCode, 404);
  });

  test('the list is cursor-paginated on request', async () => {
    const c = await t.workspace();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.unshift((await createGuardrail(c)).id);
      t.clock.advance(10);
    }
    const first = (await c.call('GET', '/guardrails?limit=2')).json();
    assert.equal(first.object, 'list');
    assert.equal(first.has_more, true);
    assert.deepEqual(
      first.data.map((g: { id: string }) => g.id),
      ids.slice(0, 2),
    );
    const second = (
      await c.call('GET', `/guardrails?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`)
    ).json();
    assert.deepEqual(
      second.data.map((g: { id: string }) => g.id),
      ids.slice(2, 4),
    );
    const third = (
      await c.call('GET', `/guardrails?limit=2&starting_after=${encodeURIComponent(second.next_cursor)}`)
    ).json();
    assert.deepEqual(
      third.data.map((g: { id: string }) => g.id),
      ids.slice(4),
    );
    assert.equal(third.has_more, false);
    assert.equal(third.next_cursor, null);

    const other = await t.workspace();
    const foreign = await other.call('GET', `/guardrails?cursor=${encodeURIComponent(first.next_cursor)}`);
    assert.equal(foreign.statusCode, 400);
    assert.equal(foreign.json().error.code, 'invalid_pagination');
    const tooBig = await c.call('GET', '/guardrails?limit=101');
    assert.equal(tooBig.statusCode, 400);
    assert.equal(tooBig.json().error.param, 'limit');
  });

  test('the name is 1 to 64 characters of letters, digits, _ and -', async () => {
    const c = await t.workspace();
    const ok = await c.call('POST', '/guardrails', { guardrail_name: 'a'.repeat(64), guardrail_prompt: 'x' });
    assert.equal(ok.statusCode, 201);
    for (const bad of ['a'.repeat(65), '', 'has space', 'dot.name', 'ümlaut', 'slash/name']) {
      const response = await c.call('POST', '/guardrails', { guardrail_name: bad, guardrail_prompt: 'x' });
      assert.equal(response.statusCode, 400, bad);
      assert.equal(response.json().error.param, 'guardrail_name', bad);
      assert.deepEqual(
        response.json().errors.map((e: { param: string }) => e.param),
        ['guardrail_name'],
      );
    }
    const patch = await c.call('PATCH', `/guardrails/${ok.json().data.id}`, {
      guardrail_name: 'b'.repeat(65),
    });
    assert.equal(patch.statusCode, 400);
    assert.equal(patch.json().error.param, 'guardrail_name');
  });

  test('the prompt is required and at most 10,000 characters', async () => {
    const c = await t.workspace();
    const ok = await c.call('POST', '/guardrails', {
      guardrail_name: uniqueName(),
      guardrail_prompt: 'p'.repeat(10_000),
    });
    assert.equal(ok.statusCode, 201);
    assert.equal(ok.json().data.guardrail_prompt.length, 10_000);
    for (const bad of ['p'.repeat(10_001), '']) {
      const response = await c.call('POST', '/guardrails', {
        guardrail_name: uniqueName(),
        guardrail_prompt: bad,
      });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().error.param, 'guardrail_prompt');
    }
    const patch = await c.call('PATCH', `/guardrails/${ok.json().data.id}`, {
      guardrail_prompt: 'p'.repeat(10_001),
    });
    assert.equal(patch.statusCode, 400);
    assert.equal(patch.json().error.param, 'guardrail_prompt');

    // A prompt of spaces would be trimmed out of the block: the rule would never apply.
    const blank = await c.call('POST', '/guardrails', {
      guardrail_name: uniqueName(),
      guardrail_prompt: ' \n ',
    });
    assert.equal(blank.statusCode, 400);
    assert.equal(blank.json().error.param, 'guardrail_prompt');
    assert.deepEqual(
      blank.json().errors.map((e: { param: string }) => e.param),
      ['guardrail_prompt'],
    );
    const blankPatch = await c.call('PATCH', `/guardrails/${ok.json().data.id}`, { guardrail_prompt: '   ' });
    assert.equal(blankPatch.statusCode, 400);
    assert.equal(blankPatch.json().error.param, 'guardrail_prompt');
    const kept = await c.call('GET', `/guardrails/${ok.json().data.id}`);
    assert.equal(kept.json().data.guardrail_prompt.length, 10_000);
  });

  test('an invalid payload lists every failing field in errors', async () => {
    const c = await t.workspace();
    const empty = await c.call('POST', '/guardrails', {});
    assert.equal(empty.statusCode, 400);
    const body = empty.json();
    assert.equal(body.error.type, 'invalid_request_error');
    assert.deepEqual(body.errors.map((e: { param: string }) => e.param).sort(), [
      'guardrail_name',
      'guardrail_prompt',
    ]);
    assert.ok(body.request_id);

    const all = await c.call('POST', '/guardrails', {
      guardrail_name: 'bad name!',
      guardrail_prompt: 'p'.repeat(10_001),
      active: 'maybe',
      colour: 'red',
    });
    assert.equal(all.statusCode, 400);
    assert.deepEqual(
      all
        .json()
        .errors.map((e: { param: string }) => e.param)
        .sort(),
      ['active', 'colour', 'guardrail_name', 'guardrail_prompt'],
    );

    const membership = await c.call('POST', '/guardrails', {
      guardrail_name: uniqueName(),
      guardrail_prompt: 'x',
      membership_id: c.membershipId,
    });
    assert.equal(membership.statusCode, 400);
    assert.equal(membership.json().error.param, 'membership_id');
  });

  test('names are unique per account: 409 duplicate on create and rename; other accounts may reuse them', async () => {
    const c = await t.workspace();
    const name = uniqueName('dup');
    await createGuardrail(c, { guardrail_name: name });
    const again = await c.call('POST', '/guardrails', { guardrail_name: name, guardrail_prompt: 'other' });
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().error.code, 'duplicate');
    assert.equal(again.json().error.param, 'guardrail_name');

    const second = await createGuardrail(c);
    const rename = await c.call('PATCH', `/guardrails/${second.id}`, { guardrail_name: name });
    assert.equal(rename.statusCode, 409);
    assert.equal(rename.json().error.param, 'guardrail_name');
    const same = await c.call('PATCH', `/guardrails/${second.id}`, { guardrail_name: second.guardrail_name });
    assert.equal(same.statusCode, 200, 'keeping its own name is not a duplicate');

    const other = await t.workspace();
    const reuse = await other.call('POST', '/guardrails', { guardrail_name: name, guardrail_prompt: 'x' });
    assert.equal(reuse.statusCode, 201);
  });
});
