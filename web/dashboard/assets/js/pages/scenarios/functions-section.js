// Custom functions the persona may call during a meeting: attach one of the workspace's functions
// or detach it (the functions themselves are written on the Custom functions page, under Authoring).
import { api, fetchAll } from '../../api.js';
import { Async, Button, Card, ErrorNotice, Select } from '../../components/ui.js';
import { useAction, useApi } from '../../hooks.js';
import { html, useState } from '../../lib.js';

export function FunctionsSection({ scenario }) {
  const base = `scenarios/${scenario.id}/custom-functions`;
  const attached = useApi(() => fetchAll(base), [scenario.id]);
  const all = useApi(() => fetchAll('custom-functions'), []);
  const [choice, setChoice] = useState('');
  const [run, { busy, error }] = useAction(async (change) => {
    await change();
    attached.reload();
  });

  return html`<div class="stack">
    <${Card} title="Attached functions">
      <p class="muted">The persona can call these webhooks during a meeting, for example to look up an order.
        Functions are written on the <a href="#/functions">Custom functions</a> page.</p>
      <${ErrorNotice} error=${error} />
      <${Async} state=${attached} rows=${2}
        empty=${{ when: (items) => items.length === 0, title: 'No functions attached', text: 'Attach one below, or leave this empty.' }}>
        ${(items) => html`<ul class="ordered-list" aria-label="Attached functions">
          ${items.map(
            (item) => html`<li class="ordered-list__item" key=${item.id}>
              <span class="ordered-list__name"><span class="mono">${item.name}</span>
                <span class="muted small"> ${item.description}</span></span>
              <span class="ordered-list__actions">
                <${Button} class="button button--ghost button--small" disabled=${busy} aria-label=${`Detach ${item.name}`}
                  onClick=${() => run(() => api.del(`${base}/${item.id}`))}>Detach<//>
              </span>
            </li>`,
          )}
        </ul>`}
      <//>
    <//>
    <${Card} title="Attach a function">
      <${Async} state=${all} rows=${1}
        empty=${{ when: (items) => items.length === 0, title: 'No custom functions in this workspace', text: 'Create one on the Custom functions page (Authoring), then attach it here.' }}>
        ${(items) => {
          const attachedIds = new Set((attached.data ?? []).map((item) => item.id));
          const free = items.filter((item) => !attachedIds.has(item.id));
          return html`<div class="inline-form">
            <${Select} label="Function" value=${choice} onChange=${setChoice}
              options=${[{ value: '', label: free.length ? 'Choose a function' : 'Every function is attached' }, ...free.map((item) => ({ value: item.id, label: item.name }))]} />
            <${Button} disabled=${!choice} busy=${busy} onClick=${async () => {
              await run(() => api.post(`${base}/${choice}/attach`));
              setChoice('');
            }}>Attach<//>
          </div>`;
        }}
      <//>
    <//>
  </div>`;
}
