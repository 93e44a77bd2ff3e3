// The room's WebSocket (docs/realtime.md, "The WebSocket"). One connection at a time; a lost
// connection is resumed by reconnecting and sending `join` again, which the server accepts for
// 30 seconds after the drop. Server messages are re-dispatched as DOM events named after their
// `type` (`joined`, `agent.delta`, `ended`, …), with the message as `event.detail`; binary
// frames (the persona's audio after `agent.audio`) as `binary` events with an ArrayBuffer.

const PING_INTERVAL_MS = 20_000;
/** The server keeps a dropped meeting alive for 30 s: stop trying a little before that. */
const RESUME_WINDOW_MS = 27_000;
const FATAL_CODES = new Set(['join_timeout', 'replaced', 'meeting_ended', 'internal_error']);
/** Close code of an instance that handed the meeting over as it shut down: resume at once. */
const SERVICE_RESTART = 1012;
/** Close code of a join the service could not take for now (its database is away): back off and retry. */
const TRY_AGAIN_LATER = 1013;

export class RoomConnection extends EventTarget {
  /**
   * @param {string} url       the live URL with `?t=`
   * @param {object} joinFrame the `join` message (consent, recording, client, name)
   */
  constructor(url, joinFrame) {
    super();
    this.url = url;
    this.joinFrame = { ...joinFrame, type: 'join' };
    this.socket = null;
    this.joined = false;
    this.finished = false;
    this.pingTimer = 0;
    this.droppedAt = 0;
    this.attempt = 0;
    this.joinedOnce = false;
    this.restarting = false;
  }

  open() {
    this.#connect();
  }

  /** Sends a message when the socket is open and joined; returns false when it could not. */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN || !this.joined) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Sends a binary frame (microphone PCM after `audio.start`); false when not connected. */
  sendBinary(data) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN || !this.joined) return false;
    this.socket.send(data);
    return true;
  }

  /** Bytes queued on the socket and not yet sent. */
  get bufferedAmount() {
    return this.socket?.bufferedAmount ?? 0;
  }

  /** Leaves the meeting: the server answers `ended` and closes the socket. */
  leave() {
    if (this.finished) return;
    if (this.send({ type: 'leave' })) return;
    // Not connected (reconnecting): stop here; the server ends the meeting when the resume
    // window passes without a connection.
    this.#finish({ type: 'closed', reason: 'participant_left' });
    this.socket?.close(1000);
  }

  #emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  #connect() {
    const socket = new WebSocket(this.url);
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    socket.addEventListener('open', () => {
      socket.send(JSON.stringify(this.joinFrame));
    });
    socket.addEventListener('message', (event) => {
      if (typeof event.data !== 'string') {
        if (event.data instanceof ArrayBuffer) this.#emit('binary', event.data);
        return;
      }
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.#receive(message);
    });
    socket.addEventListener('close', (event) => this.#closed(socket, event));
  }

  #receive(message) {
    switch (message.type) {
      case 'joined':
        this.joined = true;
        this.joinedOnce = true;
        this.attempt = 0;
        this.droppedAt = 0;
        this.restarting = false;
        this.#startPing();
        this.#emit('connection', { state: 'connected', resumed: Boolean(message.resumed) });
        break;
      case 'ended':
        this.finished = true;
        break;
      case 'error':
        if (message.fatal || FATAL_CODES.has(message.code)) {
          // A fatal error is followed by a close; `meeting_ended` is followed by `ended` too.
          if (message.code !== 'meeting_ended') this.finished = true;
        }
        break;
      default:
        break;
    }
    this.#emit(message.type, message);
  }

  #startPing() {
    clearInterval(this.pingTimer);
    this.pingTimer = window.setInterval(() => {
      this.send({ type: 'ping', ts: Date.now() });
    }, PING_INTERVAL_MS);
  }

  #closed(socket, event) {
    if (socket !== this.socket) return;
    clearInterval(this.pingTimer);
    this.joined = false;
    if (this.finished) {
      this.#emit('closed', { code: event.code });
      return;
    }
    // Refused upgrade (bad token, meeting gone) before any join: nothing to resume. A service
    // that cannot reach its database for a moment (1013) is tried again.
    if (!this.joinedOnce && event.code !== TRY_AGAIN_LATER) {
      this.#finish({ type: 'closed', reason: 'unreachable', code: event.code });
      return;
    }
    if (!this.droppedAt) this.droppedAt = Date.now();
    if (Date.now() - this.droppedAt > RESUME_WINDOW_MS) {
      this.#finish({ type: 'closed', reason: 'connection_lost', code: event.code });
      return;
    }
    this.attempt += 1;
    // A hand-over (1012) is resumed at once and then retried briskly: another instance is up. Any
    // other drop backs off, as the network or the whole service may be down.
    if (event.code === SERVICE_RESTART) this.restarting = true;
    const delay = this.restarting
      ? Math.min(2000, 250 * (this.attempt - 1))
      : Math.min(8000, 500 * 2 ** (this.attempt - 1));
    this.#emit('connection', { state: 'reconnecting', attempt: this.attempt, restart: this.restarting });
    window.setTimeout(() => {
      if (!this.finished) this.#connect();
    }, delay);
  }

  #finish(detail) {
    this.finished = true;
    clearInterval(this.pingTimer);
    this.#emit('closed', detail);
  }
}
