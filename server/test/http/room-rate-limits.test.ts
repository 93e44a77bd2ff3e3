import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer, OWN_COUNTERS } from '../harness.ts';
import { createMeeting, createScenario, Participant, startLivePlatform } from '../live/helpers.ts';

const BAD_KEY = `svc_${'2'.repeat(64)}`;

describe('room routes have a budget per meeting, apart from the per-address one', () => {
  test('a flood of bad keys from one address does not lock a participant out; the room budget ends in 429', async () => {
    // One address for everyone, as behind a reverse proxy with TRUST_PROXY_HOPS=0.
    const t = await startLivePlatform({
      PUBLIC_RATE_LIMIT_PER_MINUTE: '3',
      ROOM_RATE_LIMIT_PER_MINUTE: '5',
      ...OWN_COUNTERS,
    });
    try {
      const api = await t.workspace();
      const { scenario } = await createScenario(api);
      const meeting = await createMeeting(api, scenario.id);
      const room = (path = '', token = meeting.room_token) =>
        t.app.inject({ method: 'GET', url: `/v1/rooms/${meeting.id}${path}?t=${encodeURIComponent(token)}` });

      // A CORS preflight is shown the address budget without spending it.
      const preflight = () => t.app.inject({ method: 'OPTIONS', url: `/v1/rooms/${meeting.id}/live` });
      assert.equal((await preflight()).headers['ratelimit-remaining'], '3');
      assert.equal((await preflight()).headers['ratelimit-remaining'], '3', 'preflights are free');

      let flood = await t.app.inject({ method: 'GET', url: '/v1/personas', headers: bearer(BAD_KEY) });
      for (let i = 0; i < 5 && flood.statusCode !== 429; i += 1) {
        flood = await t.app.inject({ method: 'GET', url: '/v1/personas', headers: bearer(BAD_KEY) });
      }
      assert.equal(flood.statusCode, 429, 'the flood exhausts the address budget');
      // A wrong room token is a request without a valid credential: it spends the address's budget.
      const wrongToken = await room('', 'x'.repeat(43));
      assert.equal(wrongToken.statusCode, 429);
      // Preflights are never refused, and still carry the headers.
      const exhaustedPreflight = await preflight();
      assert.equal(exhaustedPreflight.statusCode, 204);
      assert.equal(exhaustedPreflight.headers['ratelimit-limit'], '3');
      assert.equal(exhaustedPreflight.headers['ratelimit-remaining'], '0');

      // The participant spends the meeting's budget: the page's data, then the WebSocket upgrade.
      const welcome = await room();
      assert.equal(welcome.statusCode, 200, welcome.body);
      assert.equal(welcome.headers['ratelimit-limit'], '5');
      assert.equal(welcome.headers['ratelimit-remaining'], '4');
      const participant = await Participant.connect(t.baseUrl, meeting.id, meeting.room_token);
      participant.socket.close();

      const transcript = await room('/transcript');
      assert.equal(transcript.statusCode, 200, transcript.body);
      assert.equal(transcript.headers['ratelimit-remaining'], '2');
      assert.equal((await room('/transcript')).statusCode, 200);
      assert.equal((await room('/transcript')).headers['ratelimit-remaining'], '0');
      const limited = await room('/transcript');
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.json().error.code, 'rate_limited');
      assert.ok(Number(limited.headers['retry-after']) >= 1);
      assert.equal(limited.headers['ratelimit-limit'], '5');
      await assert.rejects(
        Participant.connect(t.baseUrl, meeting.id, meeting.room_token),
        /upgrade refused with HTTP 429/,
      );

      // Another meeting's room has a budget of its own.
      const other = await createMeeting(api, scenario.id);
      const otherWelcome = await t.app.inject({
        method: 'GET',
        url: `/v1/rooms/${other.id}`,
        headers: { 'x-room-token': other.room_token },
      });
      assert.equal(otherWelcome.statusCode, 200);
      assert.equal(otherWelcome.headers['ratelimit-remaining'], '4');
    } finally {
      await t.close();
    }
  });
});
