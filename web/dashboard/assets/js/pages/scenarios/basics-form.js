// The scenario's own fields (name, type, persona, script, length, opening line, visibility) as one
// form, used to create a scenario and to edit one. The script is Markdown with a live preview.
import { api, fetchAll } from '../../api.js';
import { Markdown } from '../../components/markdown.js';
import { Async, Button, ErrorNotice, Select, TextArea, TextInput } from '../../components/ui.js';
import { fieldError, useAction, useApi } from '../../hooks.js';
import { html, useState } from '../../lib.js';

const TYPES = ['interview', 'roleplay', 'upskill', 'brainstorm'].map((type) => ({
  value: type,
  label: type[0].toUpperCase() + type.slice(1),
}));
const VISIBILITY = [
  { value: 'public', label: 'Public' },
  { value: 'restricted', label: 'Invite only' },
];
/** Fields of the form that the API names as `param`; other errors show above the buttons. */
const FIELDS = [
  'name',
  'type',
  'persona_id',
  'prompt',
  'description',
  'call_duration',
  'welcome_message',
  'visibility',
];

function draftOf(scenario) {
  return {
    name: scenario?.name ?? '',
    type: scenario?.type ?? 'roleplay',
    persona_id: scenario?.persona_id ?? '',
    prompt: scenario?.prompt ?? '',
    description: scenario?.description ?? '',
    call_duration: String(scenario?.call_duration ?? 30),
    welcome_message: scenario?.welcome_message ?? '',
    visibility: scenario?.visibility ?? 'public',
  };
}

/** The request body: numbers as numbers, empty optional texts as null. */
function bodyOf(draft) {
  return {
    name: draft.name,
    type: draft.type,
    persona_id: draft.persona_id,
    prompt: draft.prompt,
    description: draft.description.trim() ? draft.description : null,
    call_duration: draft.call_duration === '' ? undefined : Number(draft.call_duration),
    welcome_message: draft.welcome_message.trim() ? draft.welcome_message : null,
    visibility: draft.visibility,
  };
}

/** `scenario` null: a new one. `onSaved(scenario)` receives the API's answer. */
export function BasicsForm({ scenario, onSaved, submitLabel = 'Save changes' }) {
  const personas = useApi(() => fetchAll('personas'), []);
  const [draft, setDraft] = useState(() => draftOf(scenario));
  const [saved, setSaved] = useState(false);
  const set = (field) => (value) => {
    setSaved(false);
    setDraft((previous) => ({ ...previous, [field]: value }));
  };
  const [save, { busy, error }] = useAction(async () => {
    const body = bodyOf(draft);
    const answer = scenario
      ? await api.put(`scenarios/${scenario.id}`, body)
      : // A new scenario records only with the participant's consent (decision 0011); the
        // Session & recording tab turns it off.
        await api.post('scenarios', { ...body, session_options: { recording_consent_required: true } });
    setSaved(true);
    onSaved(answer);
  });
  const submit = (event) => {
    event.preventDefault();
    save();
  };
  const err = (field) => fieldError(error, field);

  return html`<form class="form scenario-form" noValidate onSubmit=${submit}>
    <div class="form-grid">
      <${TextInput} label="Name" value=${draft.name} onInput=${set('name')} error=${err('name')} maxLength="200" required />
      <${Select} label="Type" value=${draft.type} onChange=${set('type')} options=${TYPES} error=${err('type')} />
      <${Async} state=${personas} rows=${1}>
        ${(items) => html`<${Select} label="Persona" value=${draft.persona_id} onChange=${set('persona_id')}
          error=${err('persona_id')} hint="Who the participant talks to."
          options=${[{ value: '', label: 'Choose a persona' }, ...items.map((persona) => ({ value: persona.id, label: persona.name }))]} />`}
      <//>
      <${TextInput} label="Length in minutes" type="number" min="1" max="240" value=${draft.call_duration}
        onInput=${set('call_duration')} error=${err('call_duration')} hint="The call ends after this long (1–240)." />
      <${Select} label="Visibility" value=${draft.visibility} onChange=${set('visibility')} options=${VISIBILITY} error=${err('visibility')}
        hint="Public scenarios can be embedded and joined with a link." />
    </div>
    <${TextArea} label="Description" optional rows=${2} value=${draft.description} onInput=${set('description')}
      error=${err('description')} hint="Shown to participants on the join page." />
    <${TextArea} label="Welcome message" optional rows=${2} value=${draft.welcome_message} onInput=${set('welcome_message')}
      error=${err('welcome_message')} hint="The persona's opening line. Empty: written for you from the persona and the script." />
    <div class="script-editor">
      <${TextArea} label="Script (Markdown)" rows=${14} value=${draft.prompt} onInput=${set('prompt')} error=${err('prompt')}
        hint="What the persona does in the meeting: its flow, questions and rules." class="input mono" />
      <section class="script-preview" aria-labelledby="script-preview-title" tabindex="0">
        <h2 id="script-preview-title" class="script-preview__title">Preview</h2>
        <div data-script-preview><${Markdown} text=${draft.prompt} empty="The formatted script appears here as you type." /></div>
      </section>
    </div>
    <${ErrorNotice} error=${error && !FIELDS.includes(error.param) ? error : null} />
    ${error && FIELDS.includes(error.param) && html`<p class="field__error" role="alert">Check the field marked above: ${error.message}</p>`}
    <div class="form-actions">
      <${Button} type="submit" variant="primary" busy=${busy}>${submitLabel}<//>
      ${saved && html`<span class="muted" role="status">Saved.</span>`}
    </div>
  </form>`;
}
