// Which engine plays the persona, said plainly. Without a language model on the server
// (GET /v1/workspace answers `persona_engine: 'offline'`), the embedded script engine plays every
// scenario that has no custom agent of its own; a meeting records who played it in
// `agent_provider`. The notice says what that engine can and cannot do and links to the one page
// that explains how to connect a model (docs/connect-a-model.md, served at /docs/guides/).
import { api } from '../api.js';
import { html, useEffect, useState } from '../lib.js';

/** The guide on connecting a model (OpenAI, Ollama, a llama.cpp or vLLM server), on this server's /docs. */
export const CONNECT_A_MODEL_URL = '/docs/guides/connect-a-model';

// One read per page load: the engine is a server setting, it does not change while the page is open.
let engineRead = null;

/** `{ engine: 'llm' | 'offline', model }` once the workspace is read, null before (or if it failed). */
export function usePersonaEngine() {
  const [engine, setEngine] = useState(null);
  useEffect(() => {
    engineRead ??= api.get('workspace').then((body) => {
      const workspace = body?.data ?? body;
      return { engine: workspace.persona_engine, model: workspace.persona_model ?? null };
    });
    let live = true;
    engineRead.then(
      (read) => live && setEngine(read),
      () => {
        engineRead = null; // the page's own reads report errors; this notice just stays away
      },
    );
    return () => {
      live = false;
    };
  }, []);
  return engine;
}

/** True when meetings of this scenario are played by the scripted engine (no custom agent of its own). */
export function scenarioUsesScriptedEngine(scenario, engine) {
  if (engine?.engine !== 'offline') return false;
  return !(scenario.custom_agent_enabled && scenario.custom_agent_config?.base_url);
}

function CanAndCannot() {
  return html`<p><strong>It can</strong> answer from the scenario's own text (prompt, persona background, notes
      and memories), follow a persona-led script step by step, and answer the same conversation the same way
      every time, with no network.</p>
    <p><strong>It cannot</strong> hold a free conversation or reason beyond what the scenario says: a question
      its text does not answer gets a polite non-answer.</p>`;
}

function ConnectLink({
  anchor = '',
  label = 'How to connect a model (OpenAI, Ollama, a llama.cpp or vLLM server)',
}) {
  return html`<p class="engine-notice__link">
    <a href=${`${CONNECT_A_MODEL_URL}${anchor}`} target="_blank" rel="noopener">${label} ↗<span
      class="visually-hidden"> (opens in a new tab)</span></a>
  </p>`;
}

/**
 * The notice itself. `scope`: 'overview' (the workspace), 'scenario' (one scenario) or 'meeting'
 * (one meeting, which the scripted engine played: `running` while it is still on).
 */
export function ScriptedEngineNotice({ scope = 'overview', running = false }) {
  const title =
    scope === 'meeting'
      ? running
        ? 'The scripted engine plays the persona in this meeting'
        : 'The scripted engine played the persona in this meeting'
      : scope === 'scenario'
        ? 'The scripted engine plays the persona in this scenario'
        : 'Personas are played by the scripted engine';
  const lead =
    scope === 'meeting'
      ? running
        ? 'No language model is connected to this server, so the built-in engine answers for the persona.'
        : 'No language model was connected, so the built-in engine answered for the persona. Read the transcript with that in mind.'
      : scope === 'scenario'
        ? 'No language model is connected to this server, and this scenario has no custom agent of its own, so the built-in engine plays it.'
        : 'No language model is connected to this server, so the built-in engine plays every scenario that has no custom agent of its own.';
  return html`<section class="notice notice--info engine-notice" data-engine-notice=${scope}
    aria-label="Which engine plays the persona">
    <p class="engine-notice__title">${title}</p>
    <p>${lead}</p>
    <${CanAndCannot} />
    <${ConnectLink} />
  </section>`;
}

/** The notice for the overview: shown only while the scripted engine is the server's engine. */
export function WorkspaceEngineNotice() {
  const engine = usePersonaEngine();
  return engine?.engine === 'offline' ? html`<${ScriptedEngineNotice} scope="overview" />` : null;
}

/** The notice for one scenario: shown when the scripted engine would play its meetings. */
export function ScenarioEngineNotice({ scenario }) {
  const engine = usePersonaEngine();
  return scenarioUsesScriptedEngine(scenario, engine)
    ? html`<${ScriptedEngineNotice} scope="scenario" />`
    : null;
}

/**
 * A meeting played by a model or a custom agent in which the scripted engine answered some turns,
 * standing in when the provider failed (docs/live-engine.md, "When a provider fails"). Null otherwise.
 */
export function StandInNotice({ meeting }) {
  if (meeting.agent_provider === 'offline') return null;
  const replies = (meeting.sentenced_transcripts ?? []).filter(
    (sentence) => sentence.speaker === 'agent' && sentence.provider && sentence.provider !== 'welcome',
  );
  const stoodIn = replies.filter((sentence) => sentence.provider === 'offline').length;
  if (stoodIn === 0) return null;
  const who = meeting.agent_provider === 'custom_agent' ? 'the scenario’s custom agent' : 'the model';
  return html`<section class="notice notice--info engine-notice" data-engine-notice="stand-in"
    aria-label="Which engine plays the persona">
    <p>The scripted engine answered <strong>${stoodIn} of the persona’s ${replies.length} replies</strong> in this
      meeting, standing in when ${who} did not answer. Those replies come from the scenario’s text only.</p>
    <${ConnectLink} anchor="#checking-that-it-took" label="Checking the model connection" />
  </section>`;
}
