import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseClientMessage } from './protocol.ts';

describe('parseClientMessage', () => {
  it('accepts the four client messages', () => {
    for (const frame of [
      { type: 'join', name: 'Sam', consent: { recording: true }, recording: true, client: { ua: 'x' } },
      { type: 'utterance', text: 'Hello', final: true, start_ms: 10, end_ms: 900, id: 'u1' },
      { type: 'leave' },
      { type: 'ping', ts: 1 },
    ]) {
      const parsed = parseClientMessage(JSON.stringify(frame));
      assert.ok('message' in parsed, JSON.stringify(parsed));
    }
  });

  it('refuses what is not a valid message, saying why', () => {
    const cases: Array<[string, RegExp]> = [
      ['nope', /not JSON/],
      ['{"type":"dance"}', /Unknown message type/],
      ['{"type":"utterance","text":"","final":true}', /Invalid utterance/],
      ['{"type":"utterance","text":"   ","final":true}', /blank/],
      ['{"type":"utterance","text":"hi"}', /Invalid utterance/],
      [`{"type":"utterance","text":"${'x'.repeat(4001)}","final":true}`, /Invalid utterance/],
      ['{"type":"utterance","text":"hi","final":true,"start_ms":-5}', /Invalid utterance/],
      [`{"type":"join","client":{"blob":"${'x'.repeat(3000)}"}}`, /join.client/],
    ];
    for (const [raw, reason] of cases) {
      const parsed = parseClientMessage(raw);
      assert.ok('error' in parsed, raw.slice(0, 40));
      assert.match(parsed.error, reason);
    }
  });
});
