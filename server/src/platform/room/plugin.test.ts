import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import type { AppInstance } from '../../core/http/types.ts';
import { registerRoomPages } from './plugin.ts';

const MEETING = '0b6f2a52-3c1d-4e8f-9a7b-1c2d3e4f5a6b';
const RESTRICTED = '1b6f2a52-3c1d-4e8f-9a7b-1c2d3e4f5a6b';
const TOKEN = 'A'.repeat(43);

describe('room pages', () => {
  const app = Fastify();
  const checked: string[] = [];

  before(async () => {
    await registerRoomPages(app as unknown as AppInstance, {
      publicUrl: 'https://platform.example.com',
      mediaPublicUrl: 'https://cdn.example.com/media',
      async checkRoomToken(meetingId, token) {
        checked.push(meetingId);
        if (token !== TOKEN) return null;
        if (meetingId === MEETING) return { embeddable: true };
        if (meetingId === RESTRICTED) return { embeddable: false };
        return null;
      },
    });
    await app.ready();
  });
  after(() => app.close());

  it('serves the room for the right token, framable by any site when the scenario is public', async () => {
    const response = await app.inject({ url: `/room/${MEETING}?t=${TOKEN}` });
    assert.equal(response.statusCode, 200);
    assert.match(response.headers['content-type'] as string, /^text\/html/);
    assert.match(response.body, /<script type="module" src="\/room-assets\/js\/room.js">/);
    const csp = response.headers['content-security-policy'] as string;
    assert.match(csp, /frame-ancestors \*/);
    assert.match(csp, /img-src 'self' data: blob: https:\/\/platform.example.com https:\/\/cdn.example.com/);
    assert.equal(response.headers['referrer-policy'], 'no-referrer');
    assert.equal(response.headers['cache-control'], 'no-store');
  });

  it('keeps a restricted scenario’s room and the meeting page to the platform’s own frames', async () => {
    const room = await app.inject({ url: `/room/${RESTRICTED}?t=${TOKEN}` });
    assert.equal(room.statusCode, 200);
    assert.match(room.headers['content-security-policy'] as string, /frame-ancestors 'self'/);
    const page = await app.inject({ url: `/meetings/${MEETING}?t=${TOKEN}` });
    assert.equal(page.statusCode, 200);
    assert.match(page.headers['content-security-policy'] as string, /frame-ancestors 'self'/);
  });

  it('answers the same bare 404 page for a missing, malformed or wrong token and an unknown meeting', async () => {
    const urls = [
      `/room/${MEETING}`,
      `/room/${MEETING}?t=`,
      `/room/${MEETING}?t=short`,
      `/room/${MEETING}?t=${'B'.repeat(43)}`,
      `/room/${MEETING}?t=${TOKEN}&t=${TOKEN}`,
      `/room/not-a-uuid?t=${TOKEN}`,
      `/room/${'2'.repeat(8)}-3c1d-4e8f-9a7b-1c2d3e4f5a6b?t=${TOKEN}`,
      `/meetings/not-a-uuid?t=${TOKEN}`,
    ];
    const bodies = new Set<string>();
    for (const url of urls) {
      const response = await app.inject({ url });
      assert.equal(response.statusCode, 404, url);
      assert.doesNotMatch(response.body, /room\.js|<script/, url);
      assert.doesNotMatch(response.body, new RegExp(MEETING), url);
      assert.equal(response.headers['referrer-policy'], 'no-referrer');
      bodies.add(response.body);
    }
    assert.equal(bodies.size, 1);
  });

  it('sends the meeting page without a valid token to the dashboard’s page of the meeting', async () => {
    for (const url of [
      `/meetings/${MEETING}`,
      `/meetings/${MEETING}?t=`,
      `/meetings/${MEETING}?t=short`,
      `/meetings/${MEETING}?t=${'B'.repeat(43)}`,
      `/meetings/${MEETING.toUpperCase()}?t=${'B'.repeat(43)}`,
    ]) {
      const response = await app.inject({ url });
      assert.equal(response.statusCode, 302, url);
      assert.equal(response.headers.location, `/#/meetings/${MEETING}`, url);
      assert.equal(response.headers['cache-control'], 'no-store', url);
      assert.doesNotMatch(response.body, /<script/, url);
    }
  });

  it('does not look up malformed ids or tokens', async () => {
    checked.length = 0;
    await app.inject({ url: `/room/not-a-uuid?t=${TOKEN}` });
    await app.inject({ url: `/room/${MEETING}?t=%3Cscript%3E` });
    assert.deepEqual(checked, []);
  });

  it('serves the vendored WebM duration fixer as an ES module from the room’s own origin', async () => {
    const response = await app.inject({ url: '/room-assets/vendor/fix-webm-duration.js' });
    assert.equal(response.statusCode, 200);
    assert.match(response.headers['content-type'] as string, /^text\/javascript/);
    assert.equal(response.headers['x-content-type-options'], 'nosniff');
    assert.equal(response.headers['cross-origin-resource-policy'], 'same-origin');
    // The UMD build runs as strict module code and exports the function as `default`.
    const loaded = await import(`data:text/javascript,${encodeURIComponent(response.body)}`);
    assert.equal(typeof loaded.default, 'function');
    const etag = response.headers.etag as string;
    const again = await app.inject({
      url: '/room-assets/vendor/fix-webm-duration.js',
      headers: { 'if-none-match': etag },
    });
    assert.equal(again.statusCode, 304);
    for (const url of ['/room-assets/vendor/other.js', '/room-assets/vendor/..%2Fjs%2Froom.js']) {
      assert.equal((await app.inject({ url })).statusCode, 404, url);
    }
  });

  it('answers 503 without details when the token check fails', async () => {
    const failing = Fastify({ logger: false });
    await registerRoomPages(failing as unknown as AppInstance, {
      publicUrl: 'http://localhost',
      checkRoomToken: async () => {
        throw new Error('database is down');
      },
    });
    const response = await failing.inject({ url: `/room/${MEETING}?t=${TOKEN}` });
    assert.equal(response.statusCode, 503);
    assert.doesNotMatch(response.body, /database/);
    await failing.close();
  });

  it('serves the static assets with their types, and nothing outside them', async () => {
    const script = await app.inject({ url: '/room-assets/js/room.js' });
    assert.equal(script.statusCode, 200);
    assert.match(script.headers['content-type'] as string, /javascript/);
    assert.equal(script.headers['x-content-type-options'], 'nosniff');
    const css = await app.inject({ url: '/room-assets/room.css' });
    assert.equal(css.statusCode, 200);
    assert.match(css.headers['content-type'] as string, /text\/css/);
    for (const url of [
      '/room-assets/../pages/room.html',
      '/room-assets/%2e%2e/pages/room.html',
      '/room-assets/.env',
    ]) {
      const response = await app.inject({ url });
      assert.equal(response.statusCode, 404, url);
      assert.doesNotMatch(response.body, /<script/, url);
    }
    // A directory is refused, never listed.
    const directory = await app.inject({ url: '/room-assets/js/' });
    assert.ok([403, 404].includes(directory.statusCode));
    assert.doesNotMatch(directory.body, /room\.js/);
  });
});
