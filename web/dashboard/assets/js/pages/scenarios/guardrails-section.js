// The guardrails a scenario keeps, in block order, each with its own on/off switch for this
// scenario (the scenario-guardrail routes: attach, PATCH active/position, detach). A guardrail
// switched off for the whole workspace stays listed but is not in effect.
import { api, fetchAll } from '../../api.js';
import { Async, Badge, Button, Card, ErrorNotice, Select, TextArea, TextInput } from '../../components/ui.js';
import { fieldError, useAction, useApi } from '../../hooks.js';
import { html, useState } from '../../lib.js';
import { moved } from './reorder.js';

function NewGuardrailForm({ onCreated }) {
  const [name, setName] = useState('');
  const [prompt, setPrompt] = useState('');
  const [create, { busy, error }] = useAction(async () => {
    const guardrail = await api.post('guardrails', { guardrail_name: name, guardrail_prompt: prompt });
    setName('');
    setPrompt('');
    await onCreated(guardrail.data ?? guardrail);
  });
  const submit = (event) => {
    event.preventDefault();
    create();
  };
  const known = ['guardrail_name', 'guardrail_prompt'];
  return html`<form class="form" noValidate onSubmit=${submit} aria-label="New guardrail">
    <${TextInput} label="New guardrail name" value=${name} onInput=${setName} error=${fieldError(error, 'guardrail_name')}
      hint="Letters, digits, _ or -; never shown to the persona." />
    <${TextArea} label="Rule" rows=${3} value=${prompt} onInput=${setPrompt} error=${fieldError(error, 'guardrail_prompt')}
      hint="For example: Never quote a salary figure. If asked, say the recruiter will follow up." />
    <${ErrorNotice} error=${error && !known.includes(error.param) ? error : null} />
    <div class="form-actions"><${Button} type="submit" busy=${busy}>Create and attach<//></div>
  </form>`;
}

export function GuardrailsSection({ scenario }) {
  const attached = useApi(() => fetchAll(`scenarios/${scenario.id}/guardrails`), [scenario.id]);
  const all = useApi(() => fetchAll('guardrails'), []);
  const [choice, setChoice] = useState('');
  const base = `scenarios/${scenario.id}/guardrails`;
  const [run, { busy, error }] = useAction(async (change) => {
    await change();
    attached.reload();
  });
  /** Shows the switch's new state at once (the list is read again once the API answered). */
  const toggle = (item, active) => {
    attached.setData((items) =>
      items.map((row) => (row.id === item.id ? { ...row, attachment: { ...row.attachment, active } } : row)),
    );
    run(() => api.patch(`${base}/${item.id}`, { active }));
  };
  /** Writes the new order as positions 0, 1, 2… (only the rows whose position changes). */
  const reorder = (items, index, step) =>
    run(async () => {
      const next = moved(items, index, step);
      for (const [position, item] of next.entries()) {
        if (item.attachment.position !== position) await api.patch(`${base}/${item.id}`, { position });
      }
    });

  return html`<div class="stack">
    <${Card} title="Attached guardrails">
      <p class="muted">Rules added to the persona's instructions, in this order. Switch one off to leave it out of this scenario only.</p>
      <${ErrorNotice} error=${error} />
      <${Async} state=${attached} rows=${2}
        empty=${{ when: (items) => items.length === 0, title: 'No guardrails yet', text: 'Attach one below.' }}>
        ${(items) => html`<ol class="ordered-list" aria-label="Attached guardrails">
          ${items.map(
            (item, index) => html`<li class="ordered-list__item" key=${item.id}>
              <span class="ordered-list__name">
                <label class="switch">
                  <input type="checkbox" checked=${item.attachment.active} disabled=${busy}
                    onChange=${(event) => toggle(item, event.currentTarget.checked)} />
                  <span>${item.guardrail_name}</span>
                </label>
                ${!item.active && html` <${Badge} tone="warn">Off for the workspace<//>`}
                ${item.in_effect ? html` <${Badge} tone="success">In effect<//>` : html` <${Badge}>Not in effect<//>`}
              </span>
              <span class="ordered-list__actions">
                <${Button} class="button button--ghost button--small" disabled=${busy || index === 0}
                  aria-label=${`Move ${item.guardrail_name} up`} onClick=${() => reorder(items, index, -1)}>↑<//>
                <${Button} class="button button--ghost button--small" disabled=${busy || index === items.length - 1}
                  aria-label=${`Move ${item.guardrail_name} down`} onClick=${() => reorder(items, index, 1)}>↓<//>
                <${Button} class="button button--ghost button--small" disabled=${busy}
                  aria-label=${`Detach ${item.guardrail_name}`} onClick=${() => run(() => api.del(`${base}/${item.id}`))}>Detach<//>
              </span>
            </li>`,
          )}
        </ol>`}
      <//>
    <//>
    <${Card} title="Attach a guardrail">
      <${Async} state=${all} rows=${1}>
        ${(items) => {
          const attachedIds = new Set((attached.data ?? []).map((item) => item.id));
          const free = items.filter((guardrail) => !attachedIds.has(guardrail.id));
          return html`<div class="inline-form">
            <${Select} label="Guardrail" value=${choice} onChange=${setChoice}
              options=${[{ value: '', label: free.length ? 'Choose a guardrail' : 'Nothing left to attach' }, ...free.map((guardrail) => ({ value: guardrail.id, label: guardrail.guardrail_name }))]} />
            <${Button} disabled=${!choice} busy=${busy} onClick=${async () => {
              await run(() => api.post(`${base}/${choice}/attach`, {}));
              setChoice('');
            }}>Attach<//>
          </div>`;
        }}
      <//>
      <${NewGuardrailForm} onCreated=${async (guardrail) => {
        all.reload();
        await run(() => api.post(`${base}/${guardrail.id}/attach`, {}));
      }} />
    <//>
  </div>`;
}
