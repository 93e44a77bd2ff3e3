// Workspace settings (GET/PATCH /v1/workspace): its name and how long ended meetings are kept, and
// which engine plays the personas (a server setting, read-only here).
import { api } from '../../api.js';
import { CONNECT_A_MODEL_URL } from '../../components/persona-engine.js';
import {
  Async,
  Button,
  Card,
  ErrorNotice,
  Notice,
  PageHeader,
  Select,
  TextInput,
} from '../../components/ui.js';
import { fieldError, useAction, useApi } from '../../hooks.js';
import { html, useEffect, useState } from '../../lib.js';
import { useSession } from '../../session.js';

const FOREVER = 'forever';
const CUSTOM = 'custom';
const PRESETS = [30, 90, 180, 365];
const RETENTION_OPTIONS = [
  { value: FOREVER, label: 'Keep forever' },
  ...PRESETS.map((days) => ({ value: String(days), label: `${days} days` })),
  { value: CUSTOM, label: 'Another number of days' },
];

const workspaceOf = (body) => body?.data ?? body;

function SettingsForm({ workspace, onSaved }) {
  const { session, setSession } = useSession();
  const days = workspace.meeting_retention_days;
  const [name, setName] = useState(workspace.name);
  const [choice, setChoice] = useState(
    days === null ? FOREVER : PRESETS.includes(days) ? String(days) : CUSTOM,
  );
  const [custom, setCustom] = useState(days === null || PRESETS.includes(days) ? '' : String(days));
  const [saved, setSaved] = useState(false);
  useEffect(() => setSaved(false), [name, choice, custom]);
  const [save, { busy, error }] = useAction(async (event) => {
    event.preventDefault();
    const retention = choice === FOREVER ? null : Number(choice === CUSTOM ? custom : choice);
    const body = workspaceOf(
      await api.patch('workspace', { name: name.trim(), meeting_retention_days: retention }),
    );
    onSaved(body);
    // The top bar shows the workspace's name from the session.
    if (session) setSession({ ...session, account: { ...session.account, name: body.name } });
    setSaved(true);
  });
  return html`<form class="form" onSubmit=${save} noValidate>
    <${TextInput} label="Workspace name" required value=${name} onInput=${setName} error=${fieldError(error, 'name')} />
    <${Select} label="Keep ended meetings" value=${choice} onChange=${setChoice} options=${RETENTION_OPTIONS}
      error=${choice !== CUSTOM ? fieldError(error, 'meeting_retention_days') : null}
      hint="Applies to meetings that have ended; meetings still running are never deleted." />
    ${
      choice === CUSTOM &&
      html`<${TextInput} label="Days to keep" type="number" min="1" max="3650" inputmode="numeric" value=${custom}
        onInput=${setCustom} hint="From 1 to 3650 days." error=${fieldError(error, 'meeting_retention_days')} />`
    }
    <${ErrorNotice} error=${error && !['name', 'meeting_retention_days'].includes(error.param) ? error : null} />
    ${saved && html`<${Notice} kind="success">Settings saved.<//>`}
    <div class="form-actions"><${Button} type="submit" variant="primary" busy=${busy}>Save settings<//></div>
  </form>`;
}

/** Who plays the persona in scenarios without their own custom agent: the server's model or the scripted engine. */
function PersonaEngine({ workspace }) {
  const link = html`<a href=${CONNECT_A_MODEL_URL} target="_blank" rel="noopener">How to connect a model ↗<span
    class="visually-hidden"> (opens in a new tab)</span></a>`;
  if (workspace.persona_engine === 'llm') {
    return html`<div class="engine-summary" data-persona-engine="llm">
      <p>The server's language model, <span class="mono">${workspace.persona_model}</span>, plays the persona in
        every scenario without its own custom agent, and writes the analyses.</p>
      <p class="muted small">Scenarios with a custom agent are played by that agent. ${link}</p>
    </div>`;
  }
  return html`<div class="engine-summary" data-persona-engine="offline">
    <p>The <strong>scripted engine</strong> plays the persona in every scenario without its own custom agent: no
      language model is connected to this server. It answers from the scenario's text and follows scripts,
      deterministic and offline, but holds no free conversation.</p>
    <p>${link} (OpenAI, Ollama, a llama.cpp or vLLM server): an administrator sets it on the server.</p>
  </div>`;
}

export default function Settings() {
  const workspace = useApi(() => api.get('workspace').then(workspaceOf));
  return html`<div class="page">
    <${PageHeader} title="Workspace settings" description="Your workspace's name, how long it keeps practice meetings, and who plays the personas." />
    <div class="grid grid--2">
      <${Card} title="Workspace">
        <${Async} state=${workspace} rows=${3}>
          ${(data) => html`<${SettingsForm} workspace=${data} onSaved=${workspace.setData} />`}
        <//>
      <//>
      <${Card} title="What retention deletes">
        <p>Meetings that ended longer ago than the retention period are deleted for good (checked
          every 10 minutes), exactly as deleting them one by one does:</p>
        <ul class="list">
          <li>the meeting and its participants,</li>
          <li>its transcript, recording (the files too) and analysis with its goal scores,</li>
          <li>the post-call feedback and its usage record.</li>
        </ul>
        <p>Each deletion sends <span class="mono">meeting.deleted</span> to your webhooks, so your
          systems can forget the meeting too. Meetings that never ended, scenarios, personas, goals,
          memory facts and API keys are not touched. A shorter period applies at the next check; a
          longer one cannot bring back what was deleted. “Keep forever” deletes nothing.</p>
      <//>
      <${Card} title="Who plays the personas">
        <${Async} state=${workspace} rows=${2}>${(data) => html`<${PersonaEngine} workspace=${data} />`}<//>
      <//>
    </div>
  </div>`;
}
