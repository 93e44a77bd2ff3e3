import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeWav, encodeWav, pcmDurationMs, resamplePcm, WavError } from '../../src/platform/speech/wav.ts';

function tone(hz: number, rate: number, ms: number): Buffer {
  const samples = Math.round((rate * ms) / 1000);
  const out = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    out.writeInt16LE(Math.round(10000 * Math.sin((2 * Math.PI * hz * i) / rate)), i * 2);
  return out;
}

/** Zero crossings per second ≈ 2 × frequency. */
function estimateHz(pcm: Buffer, rate: number): number {
  let crossings = 0;
  for (let at = 2; at < pcm.length; at += 2) {
    if (pcm.readInt16LE(at - 2) < 0 !== pcm.readInt16LE(at) < 0) crossings++;
  }
  return crossings / 2 / (pcm.length / 2 / rate);
}

describe('WAV helpers', () => {
  test('encode then decode gives the same PCM and rate', () => {
    const pcm = tone(440, 16000, 250);
    const wav = encodeWav(pcm, 16000);
    assert.equal(wav.length, 44 + pcm.length);
    const decoded = decodeWav(wav);
    assert.equal(decoded.sampleRate, 16000);
    assert.ok(decoded.pcm.equals(pcm));
  });

  test('stereo float WAV with an extra chunk is mixed down to mono s16', () => {
    const frames = 100;
    const fmt = Buffer.alloc(8 + 16);
    fmt.write('fmt ', 0, 'ascii');
    fmt.writeUInt32LE(16, 4);
    fmt.writeUInt16LE(3, 8);
    fmt.writeUInt16LE(2, 10);
    fmt.writeUInt32LE(24000, 12);
    fmt.writeUInt32LE(24000 * 8, 16);
    fmt.writeUInt16LE(8, 20);
    fmt.writeUInt16LE(32, 22);
    const list = Buffer.from('LIST\x03\x00\x00\x00abc\x00', 'latin1'); // odd size, padded
    const data = Buffer.alloc(8 + frames * 8);
    data.write('data', 0, 'ascii');
    data.writeUInt32LE(frames * 8, 4);
    for (let i = 0; i < frames; i++) {
      data.writeFloatLE(0.5, 8 + i * 8);
      data.writeFloatLE(-0.25, 12 + i * 8);
    }
    const body = Buffer.concat([Buffer.from('WAVE'), fmt, list, data]);
    const header = Buffer.alloc(8);
    header.write('RIFF', 0, 'ascii');
    header.writeUInt32LE(body.length, 4);
    const decoded = decodeWav(Buffer.concat([header, body]));
    assert.equal(decoded.sampleRate, 24000);
    assert.equal(decoded.pcm.length, frames * 2);
    assert.equal(decoded.pcm.readInt16LE(0), Math.round(0.125 * 32767));
  });

  test('a streamed WAV with an unknown data size reads to the end', () => {
    const pcm = tone(300, 16000, 100);
    const wav = encodeWav(pcm, 16000);
    wav.writeUInt32LE(0xffffffff, 40);
    assert.ok(decodeWav(wav).pcm.equals(pcm));
  });

  test('bytes that are not a readable WAV throw WavError', () => {
    assert.throws(() => decodeWav(Buffer.from('{"error":"nope"}')), WavError);
    assert.throws(() => decodeWav(Buffer.from('RIFF\x00\x00\x00\x00WAVE', 'latin1')), WavError);
    const eightBit = encodeWav(Buffer.alloc(10), 8000);
    eightBit.writeUInt16LE(8, 34);
    assert.throws(() => decodeWav(eightBit), /unsupported WAV sample format/);
  });

  test('resampling keeps the duration and the pitch', () => {
    const pcm = tone(440, 24000, 1000);
    const down = resamplePcm(pcm, 24000, 16000);
    assert.equal(pcmDurationMs(down, 16000), 1000);
    assert.ok(Math.abs(estimateHz(down, 16000) - 440) < 5, `${estimateHz(down, 16000)} Hz`);
    const up = resamplePcm(tone(440, 8000, 500), 8000, 16000);
    assert.equal(pcmDurationMs(up, 16000), 500);
    assert.ok(Math.abs(estimateHz(up, 16000) - 440) < 5, `${estimateHz(up, 16000)} Hz`);
    assert.equal(resamplePcm(pcm, 24000, 24000), pcm);
  });
});
