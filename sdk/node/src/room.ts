/**
 * A participant in a meeting room over the realtime protocol (docs/realtime.md): join with the
 * meeting's room token, send text turns, read the persona's replies and events, leave. For bots,
 * load tests and integration tests; a browser uses the room page instead. The room's HTTP
 * operations (welcome data, transcript, results, recording uploads) take the same room token.
 *
 * No turn is lost across a dropped connection (docs/realtime.md, "Reconnecting"): every final
 * utterance carries an `id` and is kept in `pending` until the server acknowledges it (the
 * `transcript.sentence` whose `client_id` is that id); `rejoin()`, or the client itself with
 * `reconnect: true`, opens a new socket, joins again and sends the unacknowledged ones again, in
 * order, with the same ids (the server stores and answers each id once).
 */
import { randomUUID } from 'node:crypto';
import type { operations } from './generated/platform-v1.js';
import { roomOperations } from './generated/platform-v1-operations.js';
import { HttpClient } from './http-client.js';
import type { Params, RequestOptions, Result } from './types.js';

/** Raw bytes for an upload (`fetch` sends each of these as the body). */
export type UploadBody = Blob | ArrayBuffer | Uint8Array | string;

/** The part of the WebSocket API this client uses: `globalThis.WebSocket` (Node 22+) and `ws` both fit. */
export interface WebSocketLike {
  binaryType: string;
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: string, listener: (event: any) => void): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

/** A frame from the server: JSON frames by `type`; binary frames (the persona's audio) as `audio`. */
export type RoomFrame = { type: string; [field: string]: any };

export interface RoomClientOptions {
  /** The platform's address, e.g. `https://understudy.example.com`. */
  baseUrl: string;
  meetingId: string;
  /** `room_token` of `POST /v1/meetings` (returned once). */
  roomToken: string;
  /** WebSocket constructor: default `globalThis.WebSocket` (Node 22+); pass `ws`'s default export on Node 18/20. */
  WebSocket?: WebSocketConstructor;
  /** Milliseconds `next()` and friends wait for a frame. Default 30,000. */
  timeout?: number;
  /** For the HTTP operations: a fetch implementation (default `globalThis.fetch`). */
  fetch?: typeof fetch;
  /** For the HTTP operations: retries after the first attempt (429, 5xx, network errors). Default 2. */
  maxRetries?: number;
  /**
   * Resume by itself when the socket closes without the meeting being over: at once after 1012
   * (the instance handed the meeting over), after a short capped back-off otherwise (1006, 1001,
   * 1013…), for as long as the server keeps the meeting (30 s after the drop); `next()` and friends
   * keep waiting meanwhile. Not after `ended`, a fatal `error` (`replaced`…), close 1000 or 4001, or
   * `close()`. Default `false`: a drop rejects the waits, and `rejoin()` resumes.
   */
  reconnect?: boolean | ReconnectOptions;
}

export interface ReconnectOptions {
  /** How long after a drop to keep trying, in ms. Default 27,000 (the server keeps the meeting 30 s). */
  windowMs?: number;
  /** The longest pause between two attempts, in ms. Default 4,000. */
  maxDelayMs?: number;
}

/**
 * `idle` before `join()`; `connecting` while a socket opens and joins; `joined`; `reconnecting`
 * between a drop and the next attempt (with `reconnect`); `closed` when no attempt will follow.
 */
export type RoomState = 'idle' | 'connecting' | 'joined' | 'reconnecting' | 'closed';

/** What `say()` and `ask()` take besides the text. */
export interface UtteranceFields {
  /** The utterance's id (≤ 64 characters, unique in the meeting): default a random UUID. */
  id?: string;
  input?: 'voice' | 'typed';
  /** Offsets from the meeting start (`joined.meeting.started_at`), in ms. */
  start_ms?: number;
  end_ms?: number;
}

export interface JoinOptions {
  /** Used only when the meeting was created without `person_name`. */
  name?: string;
  /** Consent to recording; default `{ recording: false }`. */
  consent?: { recording: boolean };
  /** That this participant records the meeting (and will upload it with `uploadRecording`). */
  recording?: boolean;
  /** Free-form diagnostics stored with the participant. */
  client?: Record<string, unknown>;
  /** `audio: { output: true }` asks for the persona's voice (binary frames, delivered as `audio` frames). */
  audio?: { output?: boolean };
}

export class RoomError extends Error {
  override name = 'RoomError';
  constructor(
    message: string,
    /** The server's `error` frame, when it sent one. */
    readonly frame?: RoomFrame,
  ) {
    super(message);
  }
}

const OPEN = 1;
/** The longest delay setTimeout honours. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Close code of an instance that handed the meeting over as it shut down: resume at once. */
const SERVICE_RESTART = 1012;
/** Close code of a join the service could not take for now (its database is away): back off. */
const TRY_AGAIN_LATER = 1013;
/** Closes after which there is nothing to resume: normal (after `ended`), replaced (4001), join timeout (4008). */
const FINAL_CLOSE_CODES = new Set([1000, 4001, 4008]);
const DEFAULT_RESUME_WINDOW_MS = 27_000;
const DEFAULT_MAX_DELAY_MS = 4_000;

export class RoomClient {
  /** Every frame received so far, in order (across reconnections: each new socket's `joined` is among them). */
  readonly frames: RoomFrame[] = [];
  #socket: WebSocketLike | null = null;
  #read = 0;
  #closeCode: number | null = null;
  #wake: Array<() => void> = [];
  readonly #options: RoomClientOptions;
  #http: HttpClient | null = null;
  #state: RoomState = 'idle';
  /** The `join` frame, sent again on every new socket. */
  #joinFrame: Record<string, unknown> | null = null;
  #joinedOnce = false;
  /** Final utterances not acknowledged yet, by id, in the order they were said. */
  readonly #pending = new Map<string, Record<string, unknown>>();
  /** Why no reconnection may follow: the meeting is over (`ended`, a fatal error) or `close()` was called. */
  #final: 'over' | 'closed' | null = null;
  /** A `leave` was asked for: it goes again on the next socket until `ended` arrives. */
  #leaving = false;
  #droppedAt = 0;
  #attempt = 0;
  #restarting = false;
  #gaveUp = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: RoomClientOptions) {
    this.#options = options;
  }

  /** The welcome data: meeting, scenario, persona, recording, speech (`GET /v1/rooms/{id}`). */
  welcome(options?: RequestOptions): Promise<Result<operations['getRoom']>> {
    return this.#call(roomOperations.room.get, {}, options) as Promise<Result<operations['getRoom']>>;
  }

  /** The transcript as stored so far (`GET /v1/rooms/{id}/transcript`). */
  transcript(options?: RequestOptions): Promise<Result<operations['getRoomTranscript']>> {
    return this.#call(roomOperations.room.getTranscript, {}, options) as Promise<
      Result<operations['getRoomTranscript']>
    >;
  }

  /**
   * The participant's results after the meeting (`GET /v1/rooms/{id}/results`): `status: pending`
   * while the analysis runs. A 404 `results_not_shared` unless the scenario shares them.
   */
  results(options?: RequestOptions): Promise<Result<operations['getRoomResults']>> {
    return this.#call(roomOperations.room.getResults, {}, options) as Promise<
      Result<operations['getRoomResults']>
    >;
  }

  /** The post-call questions: ratings and checklists with labels (`GET /v1/rooms/{id}/feedback/catalog`). */
  feedbackCatalog(options?: RequestOptions): Promise<Result<operations['getRoomFeedbackCatalog']>> {
    return this.#call(roomOperations.room.getFeedbackCatalog, {}, options) as Promise<
      Result<operations['getRoomFeedbackCatalog']>
    >;
  }

  /**
   * The participant's answer to the post-call questions (`PUT /v1/rooms/{id}/feedback`), after the
   * meeting has ended (409 before); a second answer replaces the first.
   */
  sendFeedback(
    answer: Params<operations['putRoomFeedback']>,
    options?: RequestOptions,
  ): Promise<Result<operations['putRoomFeedback']>> {
    return this.#call(roomOperations.room.putFeedback, { ...answer }, options) as Promise<
      Result<operations['putRoomFeedback']>
    >;
  }

  /**
   * Uploads the recording (`PUT /v1/rooms/{id}/recording`): raw media bytes, `contentType` one of
   * video/webm, video/mp4, audio/webm, audio/ogg, audio/mp4. A second upload replaces the first.
   */
  uploadRecording(
    body: UploadBody,
    contentType: string,
    options?: RequestOptions,
  ): Promise<Result<operations['uploadRoomRecording']>> {
    return this.#call(roomOperations.room.uploadRecording, { body, contentType }, options) as Promise<
      Result<operations['uploadRoomRecording']>
    >;
  }

  /** Uploads the recording's thumbnail (`PUT /v1/rooms/{id}/recording/thumbnail`): image/jpeg, image/png or image/webp. */
  uploadThumbnail(
    body: UploadBody,
    contentType: string,
    options?: RequestOptions,
  ): Promise<Result<operations['uploadRoomRecordingThumbnail']>> {
    return this.#call(
      roomOperations.room.uploadRecordingThumbnail,
      { body, contentType },
      options,
    ) as Promise<Result<operations['uploadRoomRecordingThumbnail']>>;
  }

  #call(
    spec: (typeof roomOperations.room)[keyof typeof roomOperations.room],
    params: Record<string, unknown>,
    options?: RequestOptions,
  ): Promise<unknown> {
    // The room token in its header, never an API key; an upload replaces the previous one, so
    // retrying it (with its idempotency key) is safe.
    this.#http ??= new HttpClient(
      {
        baseUrl: this.#options.baseUrl,
        fetch: this.#options.fetch,
        maxRetries: this.#options.maxRetries,
        headers: { 'X-Room-Token': this.#options.roomToken },
      },
      { honoursIdempotencyKeys: true },
    );
    return this.#http.request(spec, [this.#options.meetingId], params, options);
  }

  /** The WebSocket URL of the room (`/v1/rooms/{id}/live?t=…`). */
  get url(): string {
    const base = this.#options.baseUrl.replace(/\/+$/, '').replace(/^http/, 'ws');
    return `${base}/v1/rooms/${encodeURIComponent(this.#options.meetingId)}/live?t=${encodeURIComponent(this.#options.roomToken)}`;
  }

  /** The close code of the last socket once it closed (1000 after `ended`), else null. */
  get closeCode(): number | null {
    return this.#closeCode;
  }

  /** Where the connection stands (see {@link RoomState}). */
  get state(): RoomState {
    return this.#state;
  }

  /** The final utterances sent and not acknowledged yet (no `transcript.sentence` with their id), in order. */
  get pending(): RoomFrame[] {
    return [...this.#pending.values()].map((frame) => ({ ...frame }) as RoomFrame);
  }

  /** Opens the socket and joins; resolves with the `joined` frame. */
  async join(options: JoinOptions = {}): Promise<RoomFrame> {
    this.#joinFrame = { type: 'join', consent: { recording: false }, ...options };
    this.#final = null;
    await this.#open();
    return this.next('joined');
  }

  /**
   * Resumes the meeting on a new socket: closes the current one (without leaving), opens another,
   * sends the same `join`, and resolves with its `joined` (`resumed: true`); the unacknowledged
   * finals go again right after it, in order, with their ids. Frames not read yet stay unread.
   */
  async rejoin(timeoutMs = this.#options.timeout ?? 30_000): Promise<RoomFrame> {
    if (!this.#joinFrame) throw new RoomError('join() first: rejoin() resumes a meeting this client joined');
    clearTimeout(this.#timer);
    this.#final = null;
    const previous = this.#socket;
    this.#socket = null; // its late frames and its close no longer count
    previous?.close(1000);
    const from = this.frames.length;
    await this.#open();
    return this.#waitFor((frame) => frame.type === 'joined', from, 'joined', timeoutMs);
  }

  /**
   * Sends a final text utterance (what the participant typed or said) with an `id` (a random one
   * when none is given), and returns the id. It is kept in `pending` until the server
   * acknowledges it, and sent again after the next `joined` until then; said while the socket is
   * down, it goes out after the next `joined`.
   */
  say(text: string, fields: UtteranceFields = {}): string {
    if (!this.#joinFrame || this.#final === 'over') {
      throw new RoomError(this.#joinFrame ? 'the meeting is over' : 'the room socket is not open');
    }
    const id = fields.id ?? randomUUID();
    const frame = { type: 'utterance', text, final: true, ...fields, id };
    this.#pending.delete(id);
    this.#pending.set(id, frame);
    if (this.#state === 'joined' && this.#socket?.readyState === OPEN)
      this.#socket.send(JSON.stringify(frame));
    return id;
  }

  /** Sends a final utterance (as `say()`) and resolves with the persona's answer (its `agent.message`). */
  async ask(text: string, fields: UtteranceFields = {}): Promise<RoomFrame> {
    this.#read = this.frames.length;
    this.say(text, fields);
    return this.next('agent.message');
  }

  /**
   * Leaves the meeting (it ends with `participant_left`); resolves with the `ended` frame. While
   * the client is reconnecting, the `leave` goes out once it has joined again.
   */
  async leave(): Promise<RoomFrame> {
    const resuming = this.#state === 'reconnecting' || (this.#state === 'connecting' && this.#joinedOnce);
    if (!resuming) this.send({ type: 'leave' });
    this.#leaving = true;
    const from = this.#read;
    const end = await this.#waitFor(
      (frame) => frame.type === 'ended' || (frame.type === 'error' && frame.code === 'meeting_ended'),
      from,
      'ended',
    );
    // A leave sent again after the meeting ended is answered `meeting_ended`, then `ended`.
    const ended =
      end.type === 'ended'
        ? end
        : await this.#waitFor((f) => f.type === 'ended', this.frames.indexOf(end) + 1, 'ended');
    this.#read = Math.max(this.#read, this.frames.indexOf(ended) + 1);
    return ended;
  }

  /** Sends any client frame of the protocol, as it is (a final `utterance` sent this way is not kept in `pending`). */
  send(frame: Record<string, unknown>): void {
    if (!this.#socket || this.#socket.readyState !== OPEN) throw new RoomError('the room socket is not open');
    this.#socket.send(JSON.stringify(frame));
  }

  /**
   * The next frame not read yet that is of `type` (or matches the predicate; any frame when
   * omitted); frames before it are passed over. Rejects on an `error` frame that is fatal, on
   * close (with `reconnect`: once the client stops trying), or after the timeout (`Infinity`: none).
   */
  async next(
    type?: string | ((frame: RoomFrame) => boolean),
    timeoutMs = this.#options.timeout ?? 30_000,
  ): Promise<RoomFrame> {
    const matches = typeof type === 'function' ? type : (frame: RoomFrame) => !type || frame.type === type;
    const wanted = typeof type === 'function' ? 'a matching frame' : (type ?? 'a frame');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.#read < this.frames.length) {
        const frame = this.frames[this.#read++]!;
        if (matches(frame)) return frame;
        if (frame.type === 'error' && frame.fatal)
          throw new RoomError(`${frame.code}: ${frame.message}`, frame);
      }
      if (this.#state === 'closed') throw new RoomError(this.#closedMessage(wanted));
      await this.#sleep(deadline, timeoutMs, wanted);
    }
  }

  /** Every frame from now on, until the socket closes (with `reconnect`: until the client stops trying). */
  async *[Symbol.asyncIterator](): AsyncGenerator<RoomFrame> {
    for (;;) {
      try {
        yield await this.next(undefined, Number.POSITIVE_INFINITY);
      } catch (error) {
        if (this.#state === 'closed' && this.#read >= this.frames.length) return;
        throw error;
      }
    }
  }

  /** Closes the socket without leaving (the meeting stays active 30 s for a reconnect); no reconnection follows. */
  close(): void {
    this.#final = 'closed';
    clearTimeout(this.#timer);
    if (this.#state === 'reconnecting') {
      this.#state = 'closed';
      this.#notify();
    }
    this.#socket?.close(1000);
  }

  /** A frame at `from` or later matching `matches`, without moving the read position. */
  async #waitFor(
    matches: (frame: RoomFrame) => boolean,
    from: number,
    wanted: string,
    timeoutMs = this.#options.timeout ?? 30_000,
  ): Promise<RoomFrame> {
    const deadline = Date.now() + timeoutMs;
    for (let at = from; ; ) {
      for (; at < this.frames.length; at += 1) {
        const frame = this.frames[at]!;
        if (matches(frame)) return frame;
        if (frame.type === 'error' && frame.fatal)
          throw new RoomError(`${frame.code}: ${frame.message}`, frame);
      }
      if (this.#state === 'closed') throw new RoomError(this.#closedMessage(wanted));
      await this.#sleep(deadline, timeoutMs, wanted);
    }
  }

  /** Waits for the next frame or change of state, until `deadline`. */
  async #sleep(deadline: number, timeoutMs: number, wanted: string): Promise<void> {
    const left = deadline - Date.now();
    if (left <= 0) throw new RoomError(`no ${wanted} within ${timeoutMs} ms`);
    await new Promise<void>((resolve) => {
      // setTimeout takes at most 2^31-1 ms (a longer delay fires after 1 ms, in a busy loop):
      // no timer without a deadline, and a long one wakes to re-check and wait again.
      const timer = Number.isFinite(left) ? setTimeout(resolve, Math.min(left, MAX_TIMER_MS)) : undefined;
      this.#wake.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  #closedMessage(wanted: string): string {
    const gaveUp = this.#gaveUp ? `, not resumed within ${this.#reconnectOptions().windowMs} ms` : '';
    return `the room socket closed (${this.#closeCode}${gaveUp}) before ${wanted} arrived`;
  }

  #reconnectOptions(): Required<ReconnectOptions> {
    const option = this.#options.reconnect;
    const given = typeof option === 'object' ? option : {};
    return {
      windowMs: given.windowMs ?? DEFAULT_RESUME_WINDOW_MS,
      maxDelayMs: given.maxDelayMs ?? DEFAULT_MAX_DELAY_MS,
    };
  }

  /** Opens a socket that sends the `join` once open; resolves when open, rejects if it never opens. */
  #open(): Promise<void> {
    const WebSocketImpl =
      this.#options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (!WebSocketImpl) {
      throw new RoomError("no global WebSocket (Node < 22): pass { WebSocket } from the 'ws' package");
    }
    const socket = new WebSocketImpl(this.url);
    socket.binaryType = 'arraybuffer';
    this.#socket = socket;
    this.#closeCode = null;
    this.#state = 'connecting';
    return new Promise((resolve, reject) => {
      let opened = false;
      socket.addEventListener('open', () => {
        opened = true;
        if (socket === this.#socket && this.#joinFrame) socket.send(JSON.stringify(this.#joinFrame));
        resolve();
      });
      socket.addEventListener('message', (event: { data: unknown }) => {
        if (socket !== this.#socket) return;
        this.#received(
          socket,
          typeof event.data === 'string'
            ? JSON.parse(event.data)
            : { type: 'audio', data: new Uint8Array(event.data as ArrayBuffer) },
        );
      });
      socket.addEventListener('close', (event: { code: number }) => {
        if (!opened) reject(new RoomError(`the room refused the connection (close ${event.code})`));
        if (socket === this.#socket) this.#closed(event.code);
      });
      socket.addEventListener('error', () => {
        if (!opened) reject(new RoomError('the room refused the connection (wrong meeting or room token?)'));
      });
    });
  }

  #received(socket: WebSocketLike, frame: RoomFrame): void {
    this.frames.push(frame);
    switch (frame.type) {
      case 'transcript.sentence':
        // Stored: the acknowledgement (it may also reach a new socket just before its `joined`).
        if (typeof frame.client_id === 'string') this.#pending.delete(frame.client_id);
        break;
      case 'joined':
        this.#state = 'joined';
        this.#joinedOnce = true;
        this.#attempt = 0;
        this.#droppedAt = 0;
        this.#restarting = false;
        this.#gaveUp = false;
        for (const pending of this.#pending.values()) socket.send(JSON.stringify(pending));
        if (this.#leaving) socket.send(JSON.stringify({ type: 'leave' }));
        break;
      case 'ended':
        this.#final = 'over';
        break;
      case 'error':
        if (frame.fatal) this.#final = 'over';
        break;
      default:
        break;
    }
    this.#notify();
  }

  #closed(code: number): void {
    this.#closeCode = code;
    if (this.#shouldReconnect(code)) this.#scheduleReconnect(code);
    else this.#state = 'closed';
    this.#notify();
  }

  #shouldReconnect(code: number): boolean {
    if (!this.#options.reconnect || this.#final !== null || FINAL_CLOSE_CODES.has(code)) return false;
    // Refused before any join (a wrong token, a meeting gone): nothing to resume. A first join
    // that reached an instance shutting down (1012) or without its database (1013) is tried again.
    if (!this.#joinedOnce && !this.#droppedAt) return code === SERVICE_RESTART || code === TRY_AGAIN_LATER;
    return true;
  }

  #scheduleReconnect(code: number): void {
    const { windowMs, maxDelayMs } = this.#reconnectOptions();
    const now = Date.now();
    if (!this.#droppedAt) this.#droppedAt = now;
    const left = this.#droppedAt + windowMs - now;
    if (left <= 0) {
      this.#gaveUp = true;
      this.#state = 'closed';
      return;
    }
    this.#attempt += 1;
    // A hand-over (1012): another instance is up, so at once, then briskly. Anything else backs
    // off (the network or the whole service may be down), with jitter so that many clients
    // dropped together do not all come back at the same moment.
    if (code === SERVICE_RESTART) this.#restarting = true;
    const delay = this.#restarting
      ? 250 * (this.#attempt - 1)
      : 250 * 2 ** Math.min(this.#attempt - 1, 16) * (0.8 + Math.random() * 0.4);
    this.#state = 'reconnecting';
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        if (this.#state === 'reconnecting' && this.#final === null) this.#open().catch(() => {});
      },
      Math.min(delay, maxDelayMs, left),
    );
  }

  #notify(): void {
    const waiting = this.#wake;
    this.#wake = [];
    for (const wake of waiting) wake();
  }
}
