// What the participant says by keyboard or through the browser's own speech recognition, sent as
// `utterance` frames (docs/realtime.md): a client id per final, times on the meeting clock, and
// interim results at most every 700 ms (they only serve barge-in). The service's own recognition
// needs none of this: it hears the microphone stream (voice-input.js). A final is kept until the
// service says it is stored (`transcript.sentence` with its `client_id`): one said while the
// connection is down, or lost with an instance that died, is sent again after the next `joined`,
// with the same id, and the service stores and answers it once.

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
    /** Finals not yet acknowledged, by id, in the order they were said. */
    this.pending = new Map();
  }

  /**
   * A final utterance. `input` tells the analysis whether it was spoken or typed (speech rates
   * count voice only). It goes out now when connected, else after the next `joined`.
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
    this.pending.set(id, frame);
    this.connection.send(frame);
    this.sent(frame.text, id);
  }

  /** The service stored the final with this id. */
  acknowledged(id) {
    this.pending.delete(id);
  }

  /** After a `joined`: every final the service has not acknowledged goes again, in order. */
  resend() {
    for (const frame of this.pending.values()) this.connection.send(frame);
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
