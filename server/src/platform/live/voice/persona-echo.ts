// What the persona has said lately, so the barge-in policy (barge-in.ts) can tell its own voice,
// leaking back through the participant's microphone, from the participant. Echo cancellation is
// the browser's (getUserMedia's echoCancellation); where it leaks (speakers turned up, a phone on
// a table, a browser without it), the recogniser hears the persona, and without this guard the
// persona would cut itself off and answer its own words.
import { performance } from 'node:perf_hooks';
import type { ServerMessage } from '../protocol.ts';
import { words } from './barge-in.ts';

/**
 * A turn's words stay echo candidates this long after it ended (played out or cut): the
 * recogniser's text lags the audio by the end-of-speech silence plus its own latency.
 */
export const ECHO_TAIL_MS = 8_000;

interface SpokenTurn {
  text: string;
  /** performance.now() when the turn ended; null while it runs. */
  endedAt: number | null;
}

export class PersonaEcho {
  readonly #turns = new Map<string, SpokenTurn>();
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Follows what the session sends: the persona's deltas and fillers, and the end of its turns. */
  observe(message: ServerMessage): void {
    if (message.type === 'agent.delta' || message.type === 'filler') {
      // One turn runs at a time: a new one means the others are over (a turn that said nothing
      // but a filler ends without an agent.message).
      for (const [turnId, other] of this.#turns) {
        if (turnId !== message.turn_id && other.endedAt === null) other.endedAt = this.#now();
      }
      const turn = this.#turns.get(message.turn_id) ?? { text: '', endedAt: null };
      // Fillers are whole phrases between deltas: keep a word boundary around them.
      turn.text += message.type === 'filler' ? ` ${message.text} ` : message.text;
      this.#turns.set(message.turn_id, turn);
    } else if (message.type === 'agent.message') {
      const turn = this.#turns.get(message.turn_id);
      if (turn && turn.endedAt === null) turn.endedAt = this.#now();
    }
  }

  /** The words of the turns still running and of those that ended within ECHO_TAIL_MS. */
  words(): ReadonlySet<string> {
    const now = this.#now();
    const recent = new Set<string>();
    for (const [turnId, turn] of this.#turns) {
      if (turn.endedAt !== null && now - turn.endedAt > ECHO_TAIL_MS) {
        this.#turns.delete(turnId);
        continue;
      }
      for (const word of words(turn.text)) recent.add(word);
    }
    return recent;
  }
}
