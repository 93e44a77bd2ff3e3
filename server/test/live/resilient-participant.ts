// A program playing the participant that follows docs/realtime.md, "Reconnecting", to the letter:
// it keeps each final utterance until its acknowledgement (`transcript.sentence` with its
// `client_id`), reconnects whenever the socket drops (at once after 1012, with back-off
// otherwise), and after every `joined` sends again what was not acknowledged, with the same ids.
// A turn counts as answered once a complete persona reply is stored after the utterance.
import WebSocket from 'ws';

type Message = { type: string; [field: string]: any };
interface StoredSentence {
  speaker: string;
  message: string;
  sequence_number: number;
}

export class ResilientParticipant {
  /** Every close code the sockets of this participant saw, in order. */
  readonly closeCodes: number[] = [];
  /** HTTP statuses of refused upgrades (reconnect attempts that reached no instance ready for them). */
  readonly refusals: number[] = [];
  /** Errors the service sent. */
  readonly errors: Message[] = [];
  /** How long each turn took from the utterance to its stored, complete answer (ms). */
  readonly turnMs: number[] = [];
  ended: Message | null = null;
  readonly #url: string;
  readonly #complete: (text: string) => boolean;
  #socket: WebSocket | null = null;
  #joined = false;
  #attempt = 0;
  #counter = 0;
  #leaving = false;
  readonly #pending = new Map<string, Message>();
  /** Stored sequence number of each of our utterances, by id (from acknowledgements or the text). */
  readonly #stored = new Map<string, number>();
  #lastCompleteReply = 0;
  #changed: Array<() => void> = [];
  #firstJoin: { resolve: () => void; reject: (error: Error) => void } | null = null;

  /**
   * @param complete whether a stored persona sentence is a whole reply (a cut one does not answer)
   */
  constructor(baseUrl: string, meetingId: string, token: string, complete: (text: string) => boolean) {
    this.#url = `${baseUrl.replace(/^http/, 'ws')}/v1/rooms/${meetingId}/live?t=${encodeURIComponent(token)}`;
    this.#complete = complete;
    this.prefix = meetingId.slice(0, 8);
  }

  readonly prefix: string;

  /** Connects and joins (resolves at the first `joined`). */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#firstJoin = { resolve, reject };
      this.#connect();
    });
  }

  /** Says something (an utterance with a fresh id) and waits until it is stored and answered. */
  async say(text: string, timeoutMs = 60_000): Promise<void> {
    this.#counter += 1;
    const id = `${this.prefix}-${this.#counter}`;
    const frame = { type: 'utterance', text: `${text} (${id})`, final: true, id, input: 'typed' };
    const saidAt = Date.now();
    this.#pending.set(id, frame);
    if (this.#joined) this.#send(frame);
    await this.#until(
      () => {
        const seq = this.#stored.get(id);
        return seq !== undefined && this.#lastCompleteReply > seq;
      },
      timeoutMs,
      `an answer to ${id}`,
    );
    this.turnMs.push(Date.now() - saidAt);
  }

  /** Leaves (again after a reconnect, until the meeting has ended). */
  async leave(timeoutMs = 60_000): Promise<Message> {
    this.#leaving = true;
    if (this.#joined) this.#send({ type: 'leave' });
    await this.#until(() => this.ended !== null, timeoutMs, 'ended');
    return this.ended!;
  }

  #connect(): void {
    const socket = new WebSocket(this.#url);
    this.#socket = socket;
    socket.on('open', () =>
      this.#send({ type: 'join', consent: { recording: false }, client: { test: 'resilient' } }),
    );
    socket.on('message', (raw, binary) => {
      if (!binary) this.#receive(JSON.parse(raw.toString()) as Message);
    });
    socket.on('error', () => {});
    // An upgrade refused over HTTP (a 502 from the load balancer, a 503 from an instance that is
    // closing): counted, then the socket is closed like any failed attempt.
    socket.on('unexpected-response', (_request, response) => {
      this.refusals.push(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('close', (code) => this.#closed(socket, code));
  }

  #send(message: Message): void {
    if (this.#socket?.readyState === WebSocket.OPEN) this.#socket.send(JSON.stringify(message));
  }

  #receive(message: Message): void {
    switch (message.type) {
      case 'joined':
        this.#joined = true;
        this.#attempt = 0;
        for (const sentence of message.transcript as StoredSentence[]) this.#note(sentence);
        for (const frame of this.#pending.values()) this.#send(frame);
        if (this.#leaving) this.#send({ type: 'leave' });
        this.#firstJoin?.resolve();
        this.#firstJoin = null;
        break;
      case 'transcript.sentence':
        this.#note(message.sentence, message.client_id);
        break;
      case 'ended':
        this.ended = message;
        break;
      case 'error':
        this.errors.push(message);
        break;
      default:
        return;
    }
    for (const wake of this.#changed.splice(0)) wake();
  }

  #note(sentence: StoredSentence, clientId?: string): void {
    if (clientId) {
      this.#pending.delete(clientId);
      this.#stored.set(clientId, sentence.sequence_number);
    } else if (sentence.speaker === 'user') {
      // A transcript from `joined` carries no ids: our utterances carry theirs in the text.
      const id = /\(([^()]+)\)$/.exec(sentence.message)?.[1];
      if (id?.startsWith(this.prefix)) this.#stored.set(id, sentence.sequence_number);
    }
    if (sentence.speaker === 'agent' && this.#complete(sentence.message))
      this.#lastCompleteReply = Math.max(this.#lastCompleteReply, sentence.sequence_number);
  }

  #closed(socket: WebSocket, code: number): void {
    if (socket !== this.#socket) return;
    this.closeCodes.push(code);
    this.#joined = false;
    if (this.ended) return;
    if (this.#firstJoin && this.#attempt > 40) {
      this.#firstJoin.reject(new Error(`could not join: closes ${this.closeCodes.join(', ')}`));
      return;
    }
    // A hand-over (1012) is resumed at once, then briskly; any other drop backs off.
    const delay =
      code === 1012 ? 100 * this.#attempt : Math.min(2_000, 100 * 2 ** Math.min(this.#attempt, 5));
    this.#attempt += 1;
    setTimeout(() => this.#connect(), delay).unref();
  }

  #until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const deadline = setTimeout(
        () =>
          reject(
            new Error(
              `${this.prefix}: no ${what} within ${timeoutMs} ms (closes ${this.closeCodes.join(', ')})`,
            ),
          ),
        timeoutMs,
      );
      const check = () => {
        if (done()) {
          clearTimeout(deadline);
          resolve();
        } else this.#changed.push(check);
      };
      check();
    });
  }

  close(): void {
    this.ended ??= { type: 'closed' };
    this.#socket?.terminate();
  }
}
