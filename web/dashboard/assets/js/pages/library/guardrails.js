// Guardrails: rules appended to the persona's system prompt (never shown to it by name). List,
// create, edit, delete, and the workspace-wide on/off switch (PATCH /guardrails/{id} { active }).
import { api, itemsOf } from '../../api.js';
import {
  Async,
  Button,
  Card,
  Checkbox,
  ConfirmButton,
  ErrorNotice,
  PageHeader,
  Table,
  TextArea,
  TextInput,
} from '../../components/ui.js';
import { fieldError, useAction, useApi } from '../../hooks.js';
import { html, useState } from '../../lib.js';
import { clip, dataOf, FormDialog, FormError, useValues } from './common.js';

const FIELDS = ['guardrail_name', 'guardrail_prompt', 'active'];

function GuardrailForm({ guardrail, onClose, onSaved }) {
  const [values, set] = useValues({
    guardrail_name: guardrail?.guardrail_name ?? '',
    guardrail_prompt: guardrail?.guardrail_prompt ?? '',
    active: guardrail?.active ?? true,
  });
  const [save, { busy, error }] = useAction(async () => {
    onSaved(
      dataOf(
        guardrail
          ? await api.patch(`guardrails/${guardrail.id}`, values)
          : await api.post('guardrails', values),
      ),
    );
  });
  return html`<${FormDialog} open title=${guardrail ? `Edit ${guardrail.guardrail_name}` : 'New guardrail'} onClose=${onClose}
      onSubmit=${save} busy=${busy} submitLabel=${guardrail ? 'Save guardrail' : 'Create guardrail'}>
    <${TextInput} label="Name" value=${values.guardrail_name} onInput=${set('guardrail_name')} required maxlength="64"
      pattern="[a-zA-Z0-9_-]{1,64}" hint="Letters, digits, _ or -, unique in the workspace. The persona never sees it."
      error=${fieldError(error, 'guardrail_name')} />
    <${TextArea} label="Rule" rows=${6} value=${values.guardrail_prompt} onInput=${set('guardrail_prompt')} required maxlength="10000"
      hint="Appended to the persona’s instructions, e.g. “Never quote a salary figure.” Up to 10,000 characters."
      error=${fieldError(error, 'guardrail_prompt')} />
    <${Checkbox} label="On" hint="Off removes the rule from every scenario." checked=${values.active} onChange=${set('active')} />
    <${FormError} error=${error} fields=${FIELDS} title="The guardrail was not saved" />
  <//>`;
}

/** The on/off switch in the list: saves at once and shows what failed. */
function ActiveSwitch({ guardrail, onSaved }) {
  // Shows the new position at once (a controlled checkbox would snap back until the answer).
  const [wanted, setWanted] = useState(null);
  const [toggle, { busy, error }] = useAction(async (active) => {
    setWanted(active);
    try {
      onSaved(dataOf(await api.patch(`guardrails/${guardrail.id}`, { active })));
    } catch (caught) {
      setWanted(null);
      throw caught;
    }
  });
  const checked = wanted ?? guardrail.active;
  return html`<div>
    <${Checkbox} label=${checked ? 'On' : 'Off'} checked=${checked} disabled=${busy}
      aria-label=${`Guardrail ${guardrail.guardrail_name} on`} onChange=${toggle} />
    <${ErrorNotice} error=${error} title="Not switched" />
  </div>`;
}

export default function Guardrails() {
  const state = useApi(() => api.get('guardrails').then(itemsOf));
  const [editing, setEditing] = useState(null);
  const saved = (guardrail) => {
    state.setData((items) =>
      items.some((item) => item.id === guardrail.id)
        ? items.map((item) => (item.id === guardrail.id ? guardrail : item))
        : [guardrail, ...items],
    );
    setEditing(null);
  };
  const remove = async (guardrail) => {
    await api.del(`guardrails/${guardrail.id}`);
    state.setData((items) => items.filter((item) => item.id !== guardrail.id));
  };
  return html`<div class="page">
    <${PageHeader} title="Guardrails" description="Rules every persona keeps in the scenarios they are attached to."
      actions=${html`<${Button} variant="primary" onClick=${() => setEditing('new')}>New guardrail<//>`} />
    <${Async} state=${state} rows=${4}
      empty=${{ when: (items) => items.length === 0, title: 'No guardrails yet', text: 'Create one, then attach it to a scenario.' }}>
      ${(items) => html`<${Card}>
        <${Table} caption="Guardrails" rows=${items} columns=${[
          { label: 'Name', render: (row) => html`<code>${row.guardrail_name}</code>` },
          {
            label: 'Rule',
            className: 'library-wide',
            render: (row) => html`<span class="muted">${clip(row.guardrail_prompt, 160)}</span>`,
          },
          {
            label: 'Switch',
            render: (row) =>
              html`<${ActiveSwitch} key=${`${row.id}-${row.active}`} guardrail=${row} onSaved=${saved} />`,
          },
          {
            label: 'Actions',
            render: (row) => html`<div class="form-actions">
              <${Button} onClick=${() => setEditing(row)} aria-label=${`Edit ${row.guardrail_name}`}>Edit<//>
              <${ConfirmButton} label="Delete" title=${`Delete ${row.guardrail_name}?`} buttonVariant="ghost"
                message="It is removed from every scenario it is attached to. This cannot be undone." onConfirm=${() => remove(row)} />
            </div>`,
          },
        ]} />
      <//>`}
    <//>
    ${
      editing &&
      html`<${GuardrailForm} key=${editing === 'new' ? 'new' : editing.id} guardrail=${editing === 'new' ? null : editing}
      onClose=${() => setEditing(null)} onSaved=${saved} />`
    }
  </div>`;
}
