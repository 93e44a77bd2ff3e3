// The system prompt the persona's model receives, assembled by the server from the persona, the
// script, goals, guardrails and functions (GET /v1/scenarios/{id}/prompt-preview). For the author
// only: participants never see it.
import { api } from '../../api.js';
import { Async, Button, Card, Notice } from '../../components/ui.js';
import { useApi } from '../../hooks.js';
import { html } from '../../lib.js';

export function PromptPreviewSection({ scenario }) {
  const preview = useApi(
    () => api.get(`scenarios/${scenario.id}/prompt-preview`),
    [scenario.id, scenario.updated_at],
  );
  return html`<${Card} title="System prompt" actions=${html`<${Button} class="button button--ghost button--small" onClick=${preview.reload}>Refresh<//>`}>
    <${Notice} kind="info"><p>This is what the AI persona is told before the meeting starts. It is never shown to participants.</p><//>
    <${Async} state=${preview} rows=${6}>
      ${(data) => html`<pre class="prompt-preview" data-system-prompt tabindex="0" aria-label="System prompt">${data?.system_prompt ?? ''}</pre>`}
    <//>
  <//>`;
}
