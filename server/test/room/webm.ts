// Just enough EBML to read a WebM's duration: the EBML header, then the Segment's Info element
// and its Duration (a float, in TimecodeScale units). MediaRecorder writes WebM without one;
// the room writes it in before uploading (fix-webm-duration).

const ID = {
  ebml: 0x1a45dfa3,
  segment: 0x18538067,
  info: 0x1549a966,
  cluster: 0x1f43b675,
  duration: 0x4489,
  timecodeScale: 0x2ad7b1,
};

interface Element {
  id: number;
  /** Where the data starts and ends (end = buffer end for an unknown size). */
  start: number;
  end: number;
}

/** An EBML variable-length integer: its length in bytes (1–8) from the first byte's leading zeros. */
function vintLength(first: number): number {
  for (let length = 1; length <= 8; length += 1) if (first & (0x80 >> (length - 1))) return length;
  throw new Error('invalid EBML variable-length integer');
}

function readElement(buffer: Buffer, offset: number): Element {
  const idLength = vintLength(buffer[offset]!);
  const id = buffer.readUIntBE(offset, idLength);
  const sizeAt = offset + idLength;
  const sizeLength = vintLength(buffer[sizeAt]!);
  let size = buffer[sizeAt]! & (0xff >> sizeLength);
  let unknown = size === 0xff >> sizeLength;
  for (let i = 1; i < sizeLength; i += 1) {
    size = size * 256 + buffer[sizeAt + i]!;
    if (buffer[sizeAt + i] !== 0xff) unknown = false;
  }
  const start = sizeAt + sizeLength;
  return { id, start, end: unknown ? buffer.length : Math.min(buffer.length, start + size) };
}

function children(buffer: Buffer, parent: Element): Element[] {
  const found: Element[] = [];
  for (let offset = parent.start; offset < parent.end; ) {
    const element = readElement(buffer, offset);
    found.push(element);
    // A Cluster of unknown size runs to the end: the Info we want comes before the clusters.
    if (element.id === ID.cluster) break;
    offset = element.end;
  }
  return found;
}

/** The WebM's duration in milliseconds, or null when it has none (or is not WebM). */
export function webmDurationMs(buffer: Buffer): number | null {
  if (buffer.length < 8) return null;
  const header = readElement(buffer, 0);
  if (header.id !== ID.ebml) return null;
  const segment = readElement(buffer, header.end);
  if (segment.id !== ID.segment) return null;
  const info = children(buffer, segment).find((element) => element.id === ID.info);
  if (!info) return null;
  let scale = 1_000_000; // nanoseconds per timecode unit (the default)
  let duration: number | null = null;
  for (const element of children(buffer, info)) {
    const length = element.end - element.start;
    if (element.id === ID.timecodeScale) scale = buffer.readUIntBE(element.start, length);
    if (element.id === ID.duration) {
      duration = length === 4 ? buffer.readFloatBE(element.start) : buffer.readDoubleBE(element.start);
    }
  }
  return duration === null ? null : (duration * scale) / 1_000_000;
}
