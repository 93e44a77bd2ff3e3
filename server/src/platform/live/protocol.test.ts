import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { audioFrameProblem, MAX_FRAME_BYTES, parseClientMessage } from './protocol.ts';

describe('parseClientMessage', () => {
  it('accepts the client messages', () => {
    for (const frame of [
      { type: 'join', name: 'Sam', consent: { recording: true }, recording: true, client: { ua: 'x' } },
      { type: 'join', audio: { output: true } },
      { type: 'audio.start' },
      { type: 'audio.start', start_ms: 1200 },
      { type: 'audio.stop' },
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
      ['{"type":"join","audio":{"output":"yes"}}', /Invalid join/],
      ['{"type":"audio.start","start_ms":-1}', /Invalid audio.start/],
      ['{"type":"audio.start","start_ms":1.5}', /Invalid audio.start/],
    ];
    for (const [raw, reason] of cases) {
      const parsed = parseClientMessage(raw);
      assert.ok('error' in parsed, raw.slice(0, 40));
      assert.match(parsed.error, reason);
    }
  });
});

describe('audioFrameProblem', () => {
  it('takes whole 16-bit samples up to 64 KiB, only while the microphone stream is on', () => {
    assert.equal(audioFrameProblem(1280, true), null);
    assert.equal(audioFrameProblem(MAX_FRAME_BYTES, true), null);
    assert.match(audioFrameProblem(1280, false)!, /audio\.start/);
    assert.match(audioFrameProblem(1281, true)!, /even/);
    assert.match(audioFrameProblem(0, true)!, /even/);
    assert.match(audioFrameProblem(MAX_FRAME_BYTES + 2, true)!, /at most/);
  });
});
