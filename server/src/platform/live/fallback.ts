// "Never silence" (docs/live-engine.md, "When a provider fails"): who answers a turn when the
// meeting's reply provider fails after its retry, what the persona says while it waits, and the
// words it uses when nobody can answer.
import type { AgentFallback } from '../scenarios/tables.ts';
import type { ReplyProvider } from './providers/types.ts';

/**
 * Whether the embedded script engine may answer for the meeting's provider. `auto`: yes for the
 * platform LLM (the operator's own engine stands in for the operator's own model), no for a custom
 * agent (its owner may not want another engine speaking for it).
 */
export function offlineMayStandIn(
  setting: AgentFallback | undefined,
  provider: ReplyProvider['kind'],
): boolean {
  if (provider === 'offline') return false;
  if (setting === 'offline') return true;
  if (setting === 'apology') return false;
  return provider === 'llm';
}

/** Spoken while the provider is slow; one per interval, in turn, so consecutive ones differ. */
export const FILLER_TEXTS = [
  'Let me think about that for a moment.',
  'Bear with me a second.',
  'Just a moment, I want to get this right.',
  "Still with you, I'm pulling that together.",
  'Sorry, this is taking me a little longer than usual.',
  'Thanks for your patience, nearly there.',
] as const;

/** Said when every provider failed; the next utterance asks the provider again. */
export const APOLOGY_TEXTS = [
  'Sorry, I lost my train of thought there. Could you say that again?',
  "I'm sorry, I didn't quite catch that. Could you repeat it?",
  'Apologies, something slipped on my side. Could you ask me that once more?',
] as const;
