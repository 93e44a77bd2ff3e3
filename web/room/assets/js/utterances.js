// What the participant says by keyboard or through the browser's own speech recognition, sent as
// `utterance` frames (docs/realtime.md): a client id per final, times on the meeting clock, and
// interim results at most every 700 ms (they only serve barge-in). The service's own recognition
// needs none of this: it hears the microphone stream (voice-input.js).

const INTERIM_INTERVAL_MS = 700;
/** The server's limit for `utterance.text`. */
const MAX_CHARS = 4000;

export class UtteranceSender {
  /**
   * @param {object} options
   * @param {import('./connection.js').RoomConnection} options.connection
   * @param {(epochMs: number) => number | undefined} options.meetingMs  epoch ms → meeting offset
   * @param {(text: string, id: string) => void} options.sent  a final went out (show it, cut the persona)
   */
  constructor({ connection, meetingMs, sent }) {
    this.connection = connection;
    this.meetingMs = meetingMs;
    this.sent = sent;
    this.counter = 0;
    this.lastInterim = '';
    this.lastInterimAt = 0;
  }

  /**
   * A final utterance. `input` tells the analysis whether it was spoken or typed (speech rates
   * count voice only). False when it could not be sent (not connected).
   */
  final(text, startedAt, endedAt, input) {
    this.counter += 1;
    const id = `c${this.counter}-${Date.now().toString(36)}`;
    const frame = { type: 'utterance', text: text.slice(0, MAX_CHARS), final: true, id, input };
    const start = this.meetingMs(startedAt);
    const end = this.meetingMs(endedAt);
    if (start !== undefined && end !== undefined && end >= start) {
      frame.start_ms = start;
      frame.end_ms = end;
    }
    if (!this.connection.send(frame)) return false;
    this.sent(frame.text, id);
    return true;
  }

  /** An interim result of the browser's recognition (lets the server interrupt the persona). */
  interim(text) {
    const now = Date.now();
    if (!text || text === this.lastInterim || now - this.lastInterimAt < INTERIM_INTERVAL_MS) return;
    this.lastInterim = text;
    this.lastInterimAt = now;
    this.connection.send({ type: 'utterance', text: text.slice(0, MAX_CHARS), final: false });
  }

  /** The browser's recognition gave its final: the next interim belongs to a new utterance. */
  endInterim() {
    this.lastInterim = '';
  }
}
