// The shape of one conversation of the test set (docs/offline-engine.md, "Conversation test set").
import type { OfflineScriptContext } from '../composer.ts';

/** A question the participant asks and the phrases the persona's reply must contain (any case). */
export interface FactQuestion {
  ask: string;
  expect: readonly string[];
}

/** A participant line in a persona-led conversation and the script question that must follow it. */
export interface ScriptTurn {
  say: string;
  /** A question the participant asks first, in the middle of the script (counted as a fact pair). */
  ask?: FactQuestion;
  /** A phrase of the scripted question the persona must ask next; null when it must close. */
  next: string | null;
}

export interface ConversationCase {
  name: string;
  /** Written the way a person writes a scenario by hand, not shaped for the engine. */
  handWritten?: boolean;
  context: OfflineScriptContext;
  /** Participant-led: asked in one call, in this order. */
  questions?: readonly FactQuestion[];
  /** Persona-led: played in one call, in this order. */
  script?: readonly ScriptTurn[];
}
