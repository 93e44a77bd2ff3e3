// Writes what was said, in order: one promise chain per meeting, so sentence sequence numbers
// follow the conversation even though each write is asynchronous, and the room hears of each
// sentence (`transcript.sentence`) once it is stored. Usage (tokens, turns) goes down the same
// chain, so an end that awaits the chain finds everything written.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import { renderSentence } from '../meetings/render.ts';
import type { ServerMessage } from './protocol.ts';
import { liveRepository, type UsageIncrement } from './repository.ts';
import type { SentenceProvider, Speaker } from './tables.ts';

export interface SentenceToStore {
  speaker: Speaker;
  message: string;
  startMs: number;
  endMs: number | null;
  provider: SentenceProvider | null;
  /** The room's id for the utterance, echoed as `client_id`. */
  clientId?: string;
  input?: 'voice' | 'typed';
}

export class TranscriptWriter {
  readonly #db: Kysely<DB>;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #meeting: { meetingId: string; accountId: string; transcriptId: number };
  readonly #send: (message: ServerMessage) => void;
  #writes: Promise<unknown> = Promise.resolve();
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

  store(sentence: SentenceToStore): void {
    const now = this.#clock.now();
    const { meetingId, accountId, transcriptId } = this.#meeting;
    this.#writes = this.#writes
      .then(() =>
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
          now,
        }),
      )
      .then((row) => {
        if (!row) return;
        this.#send({
          type: 'transcript.sentence',
          sentence: renderSentence(row),
          ...(sentence.clientId ? { client_id: sentence.clientId } : {}),
        });
      })
      .catch((error) => {
        this.#logger.error({ err: error, meeting_id: meetingId }, 'sentence could not be stored');
      });
  }

  /** Writes the usage accumulated so far (and starts counting afresh). */
  flushUsage(): void {
    const usage = this.usage;
    this.usage = emptyUsage();
    this.#writes = this.#writes
      .then(() => liveRepository.addUsage(this.#db, this.#meeting.meetingId, usage, this.#clock.now()))
      .catch((error) =>
        this.#logger.warn({ err: error, meeting_id: this.#meeting.meetingId }, 'usage not recorded'),
      );
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
