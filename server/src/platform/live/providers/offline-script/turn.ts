// Everything one reply is decided from, derived afresh from the context and the messages.
import type { ChatMessage } from '../types.ts';
import { indexTerms } from './concepts.ts';
import { type ConversationState, deriveState } from './conversation.ts';
import type { Recent } from './follow-ups.ts';
import { Said } from './fresh.ts';
import { collectFacts, extrasFromSystemPrompt, type Fact } from './knowledge.ts';
import { type Lead, whoLeads } from './lead.ts';
import { demeanorOf, PHRASING, type Phrasing } from './phrasing.ts';
import type { ScriptStep } from './script.ts';
import { fill, pick } from './text.ts';

export interface OfflineScriptContext {
  personaName: string;
  jobTitle: string | null;
  demeanor: string | null;
  /** The persona's background: facts it can answer from. */
  background?: string | null;
  scenarioName: string;
  scenarioType: string;
  prompt: string | null;
  welcomeMessage: string | null;
  participantName: string | null;
}

export type ScriptEndReason = 'script_complete' | 'participant_ended';

export interface ComposedReply {
  text: string;
  /** Set when the reply closes the session; the engine then calls end_call if it is offered. */
  endReason: ScriptEndReason | null;
}

export interface Turn {
  context: OfflineScriptContext;
  lead: Lead;
  steps: readonly ScriptStep[];
  state: ConversationState;
  phrasing: Phrasing;
  facts: readonly Fact[];
  said: Said;
  /** The exchange before the participant's current words. */
  recent: Recent;
}

export function readTurn(
  context: OfflineScriptContext,
  steps: readonly ScriptStep[],
  messages: readonly ChatMessage[],
): Turn {
  const system = messages.find((m) => m.role === 'system')?.content ?? null;
  const extras = extrasFromSystemPrompt(system);
  const lead = whoLeads(context.scenarioType, context.prompt);
  const facts = collectFacts({
    personaName: context.personaName,
    prompt: context.prompt,
    background: context.background ?? null,
    noteContext: extras.noteContext,
    memories: extras.memories,
  });
  return {
    context,
    lead,
    steps,
    state: deriveState(messages, steps),
    phrasing: PHRASING[demeanorOf(context.demeanor)],
    facts: lead === 'persona' ? withoutScript(facts, steps) : facts,
    said: new Said(messages),
    recent: recentExchange(messages),
  };
}

const scriptless = new WeakMap<readonly Fact[], WeakMap<readonly ScriptStep[], readonly Fact[]>>();

/**
 * When the persona leads, a sentence its script's steps were read from ("She'll ask: why data
 * engineering, …", "Rosa wants to know how they're settling in") is what it asks, not what it knows.
 */
function withoutScript(facts: readonly Fact[], steps: readonly ScriptStep[]): readonly Fact[] {
  let bySteps = scriptless.get(facts);
  if (!bySteps) {
    bySteps = new WeakMap();
    scriptless.set(facts, bySteps);
  }
  let kept = bySteps.get(steps);
  if (!kept) {
    const sources = steps.map((step) => contentStems(step.source)).filter((stems) => stems.size >= 2);
    kept = facts.filter((fact) => {
      const said = contentStems(fact.text);
      return !sources.some((source) => [...source].filter((s) => said.has(s)).length >= source.size * 0.8);
    });
    bySteps.set(steps, kept);
  }
  return kept;
}

function contentStems(text: string): Set<string> {
  return new Set(text.split(/\s+/).flatMap((w) => (indexTerms(w) ?? []).filter((t) => !t.startsWith('~'))));
}

/** The persona's last reply and the participant's words it answered. */
function recentExchange(messages: readonly ChatMessage[]): Recent {
  const spoken = messages.filter((m) => m.role !== 'system' && (m.content ?? '').trim() !== '');
  let last = spoken.length - 1;
  while (last >= 0 && spoken[last].role !== 'assistant') last--;
  if (last < 0) return { question: null, reply: null };
  let start = last;
  while (start > 0 && spoken[start - 1].role === 'user') start--;
  const question = spoken
    .slice(start, last)
    .map((m) => m.content)
    .join(' ')
    .trim();
  return { question: question || null, reply: spoken[last].content ?? null };
}

/** A phrase of the persona's table not said yet in this call; `fallback` (or the usual pick) when all were. */
export function say(
  turn: Turn,
  options: readonly string[],
  salt: string,
  fallback: string | null = null,
): string {
  const name = turn.context.participantName?.trim();
  const values = { name: name ? `, ${name}` : '' };
  const filled = options.map((o) => fill(o, values));
  const fresh = turn.said.fresh(filled, turn.state.seed, salt);
  if (fresh !== null) return fresh;
  return fallback ?? pick(filled, turn.state.seed, salt);
}
