// How meetings of the scenario run: the room's controls (PUT /v1/scenarios/{id} meeting_controls)
// and the session options — recording, consent, memory, language, who is emailed, and the legacy
// per-scenario webhook (PUT /v1/scenarios/{id}/session-options).
import { api } from '../../api.js';
import {
  Button,
  Card,
  Checkbox,
  ErrorNotice,
  SecretOnce,
  Select,
  TextArea,
  TextInput,
} from '../../components/ui.js';
import { fieldError, useAction } from '../../hooks.js';
import { html, useState } from '../../lib.js';

const FALLBACKS = [
  { value: 'auto', label: 'Automatic (offline engine for the platform model, an apology for your agent)' },
  { value: 'offline', label: 'The offline script engine answers that turn' },
  { value: 'apology', label: 'The persona apologises and tries again on the next turn' },
];

function ControlsCard({ scenario, onChanged }) {
  const controls = scenario.meeting_controls ?? {};
  const [draft, setDraft] = useState({
    allow_participant_end: controls.allow_participant_end ?? true,
    idle_timeout_seconds: String(controls.idle_timeout_seconds ?? 300),
    show_timer: controls.show_timer ?? true,
    agent_fallback: controls.agent_fallback ?? 'auto',
    share_results_with_participant: controls.share_results_with_participant ?? false,
  });
  const [saved, setSaved] = useState(false);
  const set = (field) => (value) => {
    setSaved(false);
    setDraft((previous) => ({ ...previous, [field]: value }));
  };
  const [save, { busy, error }] = useAction(async () => {
    const meeting_controls = { ...draft, idle_timeout_seconds: Number(draft.idle_timeout_seconds) };
    onChanged(await api.put(`scenarios/${scenario.id}`, { meeting_controls }));
    setSaved(true);
  });
  const err = (field) => fieldError(error, `meeting_controls.${field}`);
  return html`<${Card} title="Meeting controls">
    <form class="form" noValidate onSubmit=${(event) => {
      event.preventDefault();
      save();
    }}>
      <${Checkbox} label="The participant may end the call" checked=${draft.allow_participant_end} onChange=${set('allow_participant_end')} />
      <${Checkbox} label="Show the remaining time in the room" checked=${draft.show_timer} onChange=${set('show_timer')} />
      <${Checkbox} label="Share results with the participant" checked=${draft.share_results_with_participant}
        onChange=${set('share_results_with_participant')}
        hint="After the analysis, the participant's meeting page shows their score per goal, strengths and what to practise next." />
      <div class="form-grid">
        <${TextInput} label="End after silence (seconds)" type="number" min="30" max="3600" value=${draft.idle_timeout_seconds}
          onInput=${set('idle_timeout_seconds')} error=${err('idle_timeout_seconds')} hint="30 to 3600." />
        <${Select} label="When the reply model fails" value=${draft.agent_fallback} onChange=${set('agent_fallback')}
          options=${FALLBACKS} error=${err('agent_fallback')} />
      </div>
      <${ErrorNotice} error=${error && !String(error.param).startsWith('meeting_controls.') ? error : null} />
      <div class="form-actions">
        <${Button} type="submit" variant="primary" busy=${busy}>Save controls<//>
        ${saved && html`<span class="muted" role="status">Saved.</span>`}
      </div>
    </form>
  <//>`;
}

function OptionsCard({ scenario, onChanged }) {
  const options = scenario.session_options ?? {};
  const [draft, setDraft] = useState({
    recording_enabled: options.recording_enabled ?? true,
    recording_consent_required: options.recording_consent_required ?? false,
    memory_enabled: options.memory_enabled ?? false,
    language: options.language ?? 'en',
    notification_emails: (options.notification_emails ?? []).join('\n'),
    webhook_url: options.webhook_url ?? '',
  });
  const [saved, setSaved] = useState(false);
  const [secret, setSecret] = useState(null);
  const set = (field) => (value) => {
    setSaved(false);
    setDraft((previous) => ({ ...previous, [field]: value }));
  };
  const [save, { busy, error }] = useAction(async () => {
    const body = {
      ...draft,
      notification_emails: draft.notification_emails
        .split(/[\s,]+/)
        .map((email) => email.trim())
        .filter(Boolean),
      webhook_url: draft.webhook_url.trim() || null,
    };
    // The legacy webhook is sent only when it changes (setting it again is refused after its sunset).
    if (body.webhook_url === (options.webhook_url ?? null)) delete body.webhook_url;
    const answer = await api.put(`scenarios/${scenario.id}/session-options`, body);
    setSecret(answer.webhook_secret ?? null);
    const { webhook_secret: _secret, ...session_options } = answer;
    onChanged({ ...scenario, session_options });
    setSaved(true);
  });
  const err = (field) =>
    fieldError(error, field) ?? (error?.param?.startsWith(`${field}[`) ? error.message : null);
  const known = ['language', 'notification_emails', 'webhook_url'];
  return html`<${Card} title="Recording, memory and notifications">
    <form class="form" noValidate onSubmit=${(event) => {
      event.preventDefault();
      save();
    }}>
      <${Checkbox} label="Record meetings" checked=${draft.recording_enabled} onChange=${set('recording_enabled')} />
      <${Checkbox} label="Ask the participant to consent to recording before the call starts"
        checked=${draft.recording_consent_required} onChange=${set('recording_consent_required')} />
      <${Checkbox} label="Remember the participant across meetings"
        hint="The persona reads and writes memories about the participant." checked=${draft.memory_enabled}
        onChange=${set('memory_enabled')} />
      <div class="form-grid">
        <${TextInput} label="Language" value=${draft.language} onInput=${set('language')} error=${err('language')}
          hint="A language tag such as en, en-GB or de." />
        <${TextArea} label="Email when a meeting ends" optional rows=${3} value=${draft.notification_emails}
          onInput=${set('notification_emails')} error=${err('notification_emails')} hint="Up to 10 addresses, one a line." />
      </div>
      <${TextInput} label="Legacy webhook URL" optional type="url" value=${draft.webhook_url} onInput=${set('webhook_url')}
        error=${err('webhook_url')} hint="Deprecated: use the workspace's webhooks under Integrations. Empty removes it." />
      ${secret && html`<${SecretOnce} label="Webhook signing secret" value=${secret} />`}
      <${ErrorNotice} error=${error && !known.some((field) => String(error.param).startsWith(field)) ? error : null} />
      <div class="form-actions">
        <${Button} type="submit" variant="primary" busy=${busy}>Save options<//>
        ${saved && html`<span class="muted" role="status">Saved.</span>`}
      </div>
    </form>
  <//>`;
}

export function SessionSection({ scenario, onChanged }) {
  return html`<div class="stack">
    <${ControlsCard} scenario=${scenario} onChanged=${onChanged} />
    <${OptionsCard} scenario=${scenario} onChanged=${onChanged} />
  </div>`;
}
