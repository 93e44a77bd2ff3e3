// WAV and PCM helpers shared by the engines: the recognisers take PCM s16le mono 16 kHz, servers
// speak WAV, and the OpenAI-compatible synthesisers answer at whatever rate their model uses.

/** Thrown for bytes that are not a WAV this module can read (a structured failure, not a crash). */
export class WavError extends Error {}

export interface DecodedWav {
  /** PCM s16le mono (multi-channel input is mixed down). */
  pcm: Buffer;
  sampleRate: number;
}

const PCM_FORMAT = 1;
const FLOAT_FORMAT = 3;
const EXTENSIBLE_FORMAT = 0xfffe;

/** A canonical 44-byte-header WAV of PCM s16le mono. */
export function encodeWav(pcm: Buffer, sampleRate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(PCM_FORMAT, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

interface Format {
  code: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
}

function readFormat(chunk: Buffer): Format {
  if (chunk.length < 16) throw new WavError('WAV fmt chunk is too short');
  let code = chunk.readUInt16LE(0);
  const bitsPerSample = chunk.readUInt16LE(14);
  // WAVE_FORMAT_EXTENSIBLE keeps the real format in the first two bytes of its sub-format GUID.
  if (code === EXTENSIBLE_FORMAT && chunk.length >= 26) code = chunk.readUInt16LE(24);
  return { code, channels: chunk.readUInt16LE(2), sampleRate: chunk.readUInt32LE(4), bitsPerSample };
}

/** Reads RIFF/WAVE PCM 16-bit or float 32-bit, any channel count; returns s16le mono. */
export function decodeWav(bytes: Buffer): DecodedWav {
  if (
    bytes.length < 12 ||
    bytes.toString('ascii', 0, 4) !== 'RIFF' ||
    bytes.toString('ascii', 8, 12) !== 'WAVE'
  ) {
    throw new WavError('not a RIFF/WAVE file');
  }
  let format: Format | null = null;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const declared = bytes.readUInt32LE(offset + 4);
    const start = offset + 8;
    // Streaming servers write 0xFFFFFFFF (or 0) as the data size: the data runs to the end.
    const end =
      id === 'data' && (declared === 0xffffffff || declared === 0) ? bytes.length : start + declared;
    if (id === 'fmt ') format = readFormat(bytes.subarray(start, Math.min(end, bytes.length)));
    if (id === 'data') {
      if (!format) throw new WavError('WAV data chunk comes before its fmt chunk');
      return {
        pcm: toMonoS16(bytes.subarray(start, Math.min(end, bytes.length)), format),
        sampleRate: format.sampleRate,
      };
    }
    offset = end + (declared % 2); // chunks are padded to an even length
  }
  throw new WavError(format ? 'WAV has no data chunk' : 'WAV has no fmt chunk');
}

function toMonoS16(data: Buffer, format: Format): Buffer {
  const { code, channels, bitsPerSample, sampleRate } = format;
  if (channels < 1 || sampleRate < 1000 || sampleRate > 384_000) {
    throw new WavError(`unsupported WAV: ${channels} channels at ${sampleRate} Hz`);
  }
  const isS16 = code === PCM_FORMAT && bitsPerSample === 16;
  const isF32 = code === FLOAT_FORMAT && bitsPerSample === 32;
  if (!isS16 && !isF32) throw new WavError(`unsupported WAV sample format ${code}/${bitsPerSample}-bit`);
  const bytesPerSample = bitsPerSample / 8;
  const frames = Math.floor(data.length / (bytesPerSample * channels));
  if (isS16 && channels === 1) return Buffer.from(data.subarray(0, frames * 2));
  const out = Buffer.alloc(frames * 2);
  for (let frame = 0; frame < frames; frame++) {
    let sum = 0;
    for (let channel = 0; channel < channels; channel++) {
      const at = (frame * channels + channel) * bytesPerSample;
      sum += isS16 ? data.readInt16LE(at) : data.readFloatLE(at) * 32767;
    }
    out.writeInt16LE(clampS16(sum / channels), frame * 2);
  }
  return out;
}

function clampS16(value: number): number {
  return Math.max(-32768, Math.min(32767, Math.round(value)));
}

/**
 * Changes the sample rate of PCM s16le mono by linear interpolation. Good enough for speech going
 * to a recogniser or a loudspeaker; when shrinking the rate it first averages each source span so
 * the high frequencies fold back less.
 */
export function resamplePcm(pcm: Buffer, fromRate: number, toRate: number): Buffer {
  if (fromRate === toRate) return pcm;
  const input = new Int16Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.length / 2));
  const source = fromRate > toRate ? boxFilter(input, Math.round(fromRate / toRate)) : input;
  const length = Math.floor((input.length * toRate) / fromRate);
  const out = Buffer.alloc(length * 2);
  const step = fromRate / toRate;
  for (let i = 0; i < length; i++) {
    const position = i * step;
    const left = Math.floor(position);
    const right = Math.min(left + 1, source.length - 1);
    const fraction = position - left;
    out.writeInt16LE(clampS16(source[left] * (1 - fraction) + source[right] * fraction), i * 2);
  }
  return out;
}

function boxFilter(input: Int16Array, width: number): Int16Array {
  if (width < 2) return input;
  const out = new Int16Array(input.length);
  let sum = 0;
  for (let i = 0; i < input.length; i++) {
    sum += input[i];
    if (i >= width) sum -= input[i - width];
    out[i] = Math.round(sum / Math.min(i + 1, width));
  }
  return out;
}

/** Duration of PCM s16le mono in milliseconds. */
export function pcmDurationMs(pcm: Buffer, sampleRate: number): number {
  return (Math.floor(pcm.length / 2) * 1000) / sampleRate;
}
