// Personas: the AI characters participants talk to. List, create, edit, delete; every field of the
// API (name, job title, demeanor, background, gender, voice, avatar); the voice catalog with a
// sample to listen to; the avatar catalog, set and removed with PUT/DELETE /personas/{id}/avatar.
import { api, itemsOf } from '../../api.js';
import {
  Async,
  Badge,
  Button,
  Card,
  ConfirmButton,
  PageHeader,
  Select,
  Table,
  TextArea,
  TextInput,
} from '../../components/ui.js';
import { VoiceSample } from '../../components/voice-sample.js';
import { fieldError, useAction, useApi } from '../../hooks.js';
import { html, useState } from '../../lib.js';
import { FormDialog, FormError, orNull, useValues } from './common.js';

const DEMEANORS = [
  'neutral',
  'friendly',
  'analytical',
  'empathetic',
  'curious',
  'enthusiastic',
  'critical',
  'casual',
  'blunt',
  'assertive',
];
const FIELDS = ['name', 'job_title', 'demeanor', 'background', 'gender', 'voice_id', 'avatar_id'];
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

async function loadLibrary() {
  const [personas, voices, avatars] = await Promise.all([
    api.get('personas').then(itemsOf),
    api.get('voices').then(itemsOf),
    api.get('avatars').then(itemsOf),
  ]);
  return { personas, voices, avatars };
}

function initialValues(persona) {
  return {
    name: persona?.name ?? '',
    job_title: persona?.job_title ?? '',
    demeanor: persona?.demeanor ?? 'neutral',
    background: persona?.background ?? '',
    gender: persona?.gender ?? '',
    voice_id: persona?.voice_id ?? '',
    avatar_id: persona?.avatar_id ?? '',
  };
}

/** Saves the persona; on edit a changed avatar goes through its own endpoint (set or remove). */
async function savePersona(persona, values) {
  const body = {
    name: values.name,
    job_title: values.job_title,
    demeanor: values.demeanor,
    background: orNull(values.background),
    gender: values.gender || null,
  };
  if (!persona) {
    if (values.voice_id) body.voice_id = values.voice_id;
    if (values.avatar_id) body.avatar_id = values.avatar_id;
    return api.post('personas', body);
  }
  body.voice_id = values.voice_id || null;
  let saved = await api.put(`personas/${persona.id}`, body);
  if ((values.avatar_id || null) !== (persona.avatar_id || null)) {
    saved = values.avatar_id
      ? await api.put(`personas/${persona.id}/avatar`, { avatar_id: values.avatar_id })
      : await api.del(`personas/${persona.id}/avatar`);
  }
  return saved;
}

function PersonaForm({ persona, voices, avatars, onClose, onSaved }) {
  const [values, set] = useValues(initialValues(persona));
  const [save, { busy, error }] = useAction(async () => {
    onSaved(await savePersona(persona, values));
  });
  const voice = voices.find((item) => item.id === values.voice_id);
  const avatar = avatars.find((item) => item.id === values.avatar_id);
  const voiceOptions = [
    { value: '', label: 'Default voice of the gender' },
    ...voices.map((item) => ({ value: item.id, label: `${item.name} — ${item.gender}, ${item.language}` })),
  ];
  return html`<${FormDialog} open title=${persona ? `Edit ${persona.name}` : 'New persona'} onClose=${onClose}
      onSubmit=${save} busy=${busy} submitLabel=${persona ? 'Save persona' : 'Create persona'}>
    <div class="form-grid">
      <${TextInput} label="Name" value=${values.name} onInput=${set('name')} required maxlength="100" error=${fieldError(error, 'name')} />
      <${TextInput} label="Job title" value=${values.job_title} onInput=${set('job_title')} required maxlength="100"
        hint="Shown to participants." error=${fieldError(error, 'job_title')} />
      <${Select} label="Demeanor" value=${values.demeanor} onChange=${set('demeanor')} error=${fieldError(error, 'demeanor')}
        options=${DEMEANORS.map((value) => ({ value, label: capital(value) }))} />
      <${Select} label="Gender" value=${values.gender} onChange=${set('gender')} error=${fieldError(error, 'gender')}
        hint="Chooses the default voice; an avatar sets it to its own."
        options=${[{ value: '', label: 'Not set' }, { value: 'female', label: 'Female' }, { value: 'male', label: 'Male' }]} />
    </div>
    <${TextArea} label="Background" optional value=${values.background} onInput=${set('background')} rows=${5} maxlength="5000"
      hint="Who they are, what they care about, what they know. Up to 5,000 characters." error=${fieldError(error, 'background')} />
    <div class="library-pick">
      <${Select} label="Voice" value=${values.voice_id} onChange=${set('voice_id')} options=${voiceOptions} error=${fieldError(error, 'voice_id')} />
      ${voice && html`<${VoiceSample} voiceId=${voice.id} voiceName=${voice.name} />`}
    </div>
    <div class="library-pick">
      <${Select} label="Avatar" value=${values.avatar_id} onChange=${set('avatar_id')} error=${fieldError(error, 'avatar_id')}
        options=${[{ value: '', label: 'No avatar' }, ...avatars.map((item) => ({ value: item.id, label: `${item.name} (${item.gender})` }))]} />
      ${avatar ? html`<img class="avatar avatar--large" src=${avatar.image_url} alt=${`Avatar ${avatar.name}`} width="72" height="72" />` : html`<span class="avatar avatar--large avatar--empty" aria-hidden="true"></span>`}
    </div>
    <${FormError} error=${error} fields=${FIELDS} title="The persona was not saved" />
  <//>`;
}

function Avatar({ persona }) {
  return persona.avatar_url
    ? html`<img class="avatar" src=${persona.avatar_url} alt="" width="40" height="40" />`
    : html`<span class="avatar avatar--empty" aria-hidden="true">${persona.name.charAt(0)}</span>`;
}

export default function Personas() {
  const state = useApi(loadLibrary);
  const [editing, setEditing] = useState(null);
  const replace = (saved) => {
    state.setData((data) => {
      const exists = data.personas.some((item) => item.id === saved.id);
      const personas = exists
        ? data.personas.map((item) => (item.id === saved.id ? saved : item))
        : [saved, ...data.personas];
      return { ...data, personas };
    });
    setEditing(null);
  };
  const remove = async (persona) => {
    await api.del(`personas/${persona.id}`);
    state.setData((data) => ({ ...data, personas: data.personas.filter((item) => item.id !== persona.id) }));
  };
  const voiceName = (data, id) => data.voices.find((voice) => voice.id === id)?.name ?? '—';

  return html`<div class="page">
    <${PageHeader} title="Personas" description="The AI characters your participants practise with: who they are, how they behave, how they sound."
      actions=${html`<${Button} variant="primary" onClick=${() => setEditing('new')} disabled=${!state.data}>New persona<//>`} />
    <${Async} state=${state} rows=${4}>
      ${(data) => html`
        <${Card} title="Your personas">
          ${
            data.personas.length === 0
              ? html`<p class="muted">No personas yet. Create one, then use it in a scenario.</p>`
              : html`<${Table} caption="Personas" rows=${data.personas} columns=${[
                  {
                    label: 'Persona',
                    render: (row) =>
                      html`<div class="persona-cell"><${Avatar} persona=${row} /><div><strong>${row.name}</strong><div class="muted small">${row.job_title}</div></div></div>`,
                  },
                  { label: 'Demeanor', render: (row) => html`<${Badge}>${row.demeanor}<//>` },
                  {
                    label: 'Voice',
                    className: 'library-nowrap',
                    render: (row) => voiceName(data, row.voice_id),
                  },
                  {
                    label: 'Background',
                    className: 'library-wide',
                    render: (row) => html`<span class="muted clamp">${row.background || '—'}</span>`,
                  },
                  {
                    label: 'Actions',
                    render: (row) => html`<div class="form-actions">
                      <${Button} onClick=${() => setEditing(row)} aria-label=${`Edit ${row.name}`}>Edit<//>
                      <${ConfirmButton} label="Delete" title=${`Delete ${row.name}?`} buttonVariant="ghost"
                        message="This cannot be undone. A persona that plays in a scenario cannot be deleted until the scenario has another persona."
                        onConfirm=${() => remove(row)} />
                    </div>`,
                  },
                ]} />`
          }
        <//>
        <${Card} title="Voices">
          <p class="muted">The built-in voices a persona can use. Listen before you choose.</p>
          <${Table} caption="Voices" rows=${data.voices} columns=${[
            { label: 'Voice', render: (row) => html`<strong>${row.name}</strong>` },
            { label: 'Gender', className: 'library-nowrap', render: (row) => capital(row.gender) },
            { label: 'Language', className: 'library-nowrap', render: (row) => row.language },
            { label: 'Description', render: (row) => row.description },
            {
              label: 'Sample',
              render: (row) => html`<${VoiceSample} voiceId=${row.id} voiceName=${row.name} />`,
            },
          ]} />
        <//>
        ${
          editing &&
          html`<${PersonaForm} key=${editing === 'new' ? 'new' : editing.id} persona=${editing === 'new' ? null : editing}
          voices=${data.voices} avatars=${data.avatars} onClose=${() => setEditing(null)} onSaved=${replace} />`
        }
      `}
    <//>
  </div>`;
}
