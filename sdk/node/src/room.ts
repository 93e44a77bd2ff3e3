/**
 * A participant in a meeting room over the realtime protocol (docs/realtime.md): join with the
 * meeting's room token, send text turns, read the persona's replies and events, leave. For bots,
 * load tests and integration tests; a browser uses the room page instead. The room's HTTP
 * operations (welcome data, transcript, results, recording uploads) take the same room token.
 */
import type { operations } from './generated/platform-v1.js';
import { roomOperations } from './generated/platform-v1-operations.js';
import { HttpClient } from './http-client.js';
import type { RequestOptions, Result } from './types.js';

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

export class RoomClient {
  /** Every frame received so far, in order. */
  readonly frames: RoomFrame[] = [];
  #socket: WebSocketLike | null = null;
  #read = 0;
  #closeCode: number | null = null;
  #wake: Array<() => void> = [];
  readonly #options: RoomClientOptions;
  #http: HttpClient | null = null;

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

  /** The close code once the socket closed (1000 after `ended`), else null. */
  get closeCode(): number | null {
    return this.#closeCode;
  }

  /** Opens the socket and joins; resolves with the `joined` frame. */
  async join(options: JoinOptions = {}): Promise<RoomFrame> {
    await this.#open();
    this.send({ type: 'join', consent: { recording: false }, ...options });
    return this.next('joined');
  }

  /** Sends a final text utterance (what the participant typed or said). */
  say(text: string, fields: { id?: string; input?: 'voice' | 'typed' } = {}): void {
    this.send({ type: 'utterance', text, final: true, ...fields });
  }

  /** Sends a final utterance and resolves with the persona's answer (its `agent.message`). */
  async ask(text: string, fields: { id?: string; input?: 'voice' | 'typed' } = {}): Promise<RoomFrame> {
    this.#read = this.frames.length;
    this.say(text, fields);
    return this.next('agent.message');
  }

  /** Leaves the meeting (it ends with `participant_left`); resolves with the `ended` frame. */
  async leave(): Promise<RoomFrame> {
    this.send({ type: 'leave' });
    return this.next('ended');
  }

  /** Sends any client frame of the protocol. */
  send(frame: Record<string, unknown>): void {
    if (!this.#socket || this.#socket.readyState !== OPEN) throw new RoomError('the room socket is not open');
    this.#socket.send(JSON.stringify(frame));
  }

  /**
   * The next frame not read yet that is of `type` (or matches the predicate; any frame when
   * omitted); frames before it are passed over. Rejects on an `error` frame that is fatal, on
   * close, or after the timeout (`Infinity`: none).
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
      if (this.#closeCode !== null) {
        throw new RoomError(`the room socket closed (${this.#closeCode}) before ${wanted} arrived`);
      }
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
  }

  /** Every frame from now on, until the socket closes. */
  async *[Symbol.asyncIterator](): AsyncGenerator<RoomFrame> {
    for (;;) {
      try {
        yield await this.next(undefined, Number.POSITIVE_INFINITY);
      } catch (error) {
        if (this.#closeCode !== null && this.#read >= this.frames.length) return;
        throw error;
      }
    }
  }

  /** Closes the socket without leaving (the meeting stays active 30 s for a reconnect). */
  close(): void {
    this.#socket?.close(1000);
  }

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
    return new Promise((resolve, reject) => {
      let opened = false;
      socket.addEventListener('open', () => {
        opened = true;
        resolve();
      });
      socket.addEventListener('message', (event: { data: unknown }) => {
        this.frames.push(
          typeof event.data === 'string'
            ? JSON.parse(event.data)
            : { type: 'audio', data: new Uint8Array(event.data as ArrayBuffer) },
        );
        this.#notify();
      });
      socket.addEventListener('close', (event: { code: number }) => {
        this.#closeCode = event.code;
        if (!opened) reject(new RoomError(`the room refused the connection (close ${event.code})`));
        this.#notify();
      });
      socket.addEventListener('error', () => {
        if (!opened) reject(new RoomError('the room refused the connection (wrong meeting or room token?)'));
      });
    });
  }

  #notify(): void {
    const waiting = this.#wake;
    this.#wake = [];
    for (const wake of waiting) wake();
  }
}
