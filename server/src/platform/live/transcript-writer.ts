// Writes what was said, in order: one promise chain per meeting, so sentence sequence numbers
// follow the conversation even though each write is asynchronous, and the room hears of each
// sentence (`transcript.sentence`) once it is stored: for a participant utterance that frame, with
// its `client_id`, is the acknowledgement (docs/realtime.md, "Reconnecting"). Usage (tokens, turns)
// goes down the same chain, so an end that awaits the chain finds everything written. While the
// database is unreachable the writes wait and retry in order: up to MAX_WAITING_WRITES sentences
// are held, and nothing is dropped while the meeting goes on (docs/reliability.md).
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import { isDatabaseUnavailable } from '../../core/db/unavailable.ts';
import { renderSentence } from '../meetings/render.ts';
import type { ServerMessage } from './protocol.ts';
import { liveRepository, type UsageIncrement } from './repository.ts';
import type { SentenceCut, SentenceProvider, Speaker } from './tables.ts';

export interface SentenceToStore {
  speaker: Speaker;
  message: string;
  startMs: number;
  endMs: number | null;
  provider: SentenceProvider | null;
  /** The room's id for the utterance, echoed as `client_id`. */
  clientId?: string;
  input?: 'voice' | 'typed';
  /** A persona reply that was cut, and by what. */
  cut?: SentenceCut | null;
}

/** Sentences held while the database is unreachable; past this the meeting pauses (see `full`). */
export const MAX_WAITING_WRITES = 200;
/** Retry delays while the database is unreachable: doubling from the first to the last. */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 2_000;

export class TranscriptWriter {
  readonly #db: Kysely<DB>;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #meeting: { meetingId: string; accountId: string; transcriptId: number };
  readonly #send: (message: ServerMessage) => void;
  #writes: Promise<unknown> = Promise.resolve();
  /** Sentences queued and not yet stored. */
  #waiting = 0;
  /** The session is gone: writes still waiting for the database give up. */
  #abandoned = false;
  /** Usage accumulated since the last write. */
  usage: UsageIncrement = emptyUsage();

  constructor(
    deps: { db: Kysely<DB>; clock: Clock; logger: Logger },
    meeting: { meetingId: string; accountId: string; transcriptId: number },
    send: (message: ServerMessage) => void,
  ) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#logger = deps.logger;
    this.#meeting = meeting;
    this.#send = send;
  }

  /** Resolves once every write queued so far has settled (never rejects). */
  settled(): Promise<void> {
    return this.#writes.then(
      () => {},
      () => {},
    );
  }

  /**
   * MAX_WAITING_WRITES sentences are waiting for an unreachable database: the meeting takes no more
   * words until they are stored (the persona's reply to words already taken is still queued).
   */
  get full(): boolean {
    return this.#waiting >= MAX_WAITING_WRITES;
  }

  /** Queues a sentence: it is stored in order, however long the database takes to come back. */
  store(sentence: SentenceToStore): void {
    this.#waiting += 1;
    const now = this.#clock.now();
    const { meetingId, accountId, transcriptId } = this.#meeting;
    this.#writes = this.#writes
      .then(() =>
        this.retrying(() =>
          liveRepository.appendSentence(this.#db, {
            transcriptId,
            meetingId,
            accountId,
            speaker: sentence.speaker,
            message: sentence.message,
            startMs: sentence.startMs,
            endMs: sentence.endMs,
            input: sentence.input ?? null,
            provider: sentence.provider,
            clientId: sentence.clientId ?? null,
            cut: sentence.cut ?? null,
            now,
          }),
        ),
      )
      .then((stored) => {
        if (!stored) return;
        this.#send({
          type: 'transcript.sentence',
          sentence: renderSentence(stored.row),
          ...(sentence.clientId ? { client_id: sentence.clientId } : {}),
        });
      })
      .catch((error) => {
        this.#logger.error({ err: error, meeting_id: meetingId }, 'sentence could not be stored');
      })
      .finally(() => {
        this.#waiting -= 1;
      });
  }

  /** Writes the usage accumulated so far (and starts counting afresh). */
  flushUsage(): void {
    const usage = this.usage;
    this.usage = emptyUsage();
    this.#writes = this.#writes
      .then(() =>
        this.retrying(() =>
          liveRepository.addUsage(this.#db, this.#meeting.meetingId, usage, this.#clock.now()),
        ),
      )
      .catch((error) =>
        this.#logger.warn({ err: error, meeting_id: this.#meeting.meetingId }, 'usage not recorded'),
      );
  }

  /** Writes still waiting for the database give up (the session is over on this process). */
  abandon(): void {
    this.#abandoned = true;
  }

  /**
   * Runs `write` until it succeeds, waiting while the database is unreachable (doubling delays up
   * to RETRY_MAX_MS) until it answers or the writer is abandoned. Other errors are thrown.
   */
  async retrying<T>(write: () => Promise<T>): Promise<T> {
    let delay = RETRY_FIRST_MS;
    let warned = false;
    for (;;) {
      try {
        const result = await write();
        if (warned)
          this.#logger.info({ meeting_id: this.#meeting.meetingId }, 'database back: writes resumed');
        return result;
      } catch (error) {
        if (!isDatabaseUnavailable(error) || this.#abandoned) throw error;
        if (!warned) {
          this.#logger.warn(
            { err: error, meeting_id: this.#meeting.meetingId },
            'database unreachable: the transcript waits and retries',
          );
          warned = true;
        }
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
        delay = Math.min(delay * 2, RETRY_MAX_MS);
      }
    }
  }
}

function emptyUsage(): UsageIncrement {
  return {
    promptTokens: 0,
    completionTokens: 0,
    turns: 0,
    answered: { custom_agent: 0, llm: 0, offline: 0, apology: 0 },
  };
}
