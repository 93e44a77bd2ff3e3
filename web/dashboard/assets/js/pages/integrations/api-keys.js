// API keys of the workspace (/v1/api-secrets, which only a signed-in user may call): the list with
// each key's prefix, scopes, state and last use; a new key is shown once; revoke is reversible,
// delete is not.
import { api, itemsOf } from '../../api.js';
import {
  Async,
  Badge,
  Button,
  Card,
  ConfirmButton,
  ErrorNotice,
  PageHeader,
  SecretOnce,
  Table,
  TextInput,
} from '../../components/ui.js';
import { formatDateTime } from '../../format.js';
import { fieldError, useAction, useApi } from '../../hooks.js';
import { html, useState } from '../../lib.js';

/** `[{ scope: "memories:read" }, …]` → rows of one resource each: `{ resource, read, write }`. */
function resourcesOf(entries) {
  const rows = new Map();
  for (const { scope } of entries) {
    const [resource, access] = scope.split(':');
    const row = rows.get(resource) ?? { resource, read: null, write: null };
    row[access] = scope;
    rows.set(resource, row);
  }
  return [...rows.values()];
}

/** The scopes the API offers (GET /v1/api-secrets/scopes), one row a resource, read and write. */
function ScopePicker({ chosen, onToggle, error }) {
  const scopes = useApi(() => api.get('api-secrets/scopes').then(itemsOf));
  const box = (scope, label) =>
    scope
      ? html`<input type="checkbox" checked=${chosen.includes(scope)} aria-label=${label}
          onChange=${(event) => onToggle(scope, event.currentTarget.checked)} />`
      : html`<span class="muted" aria-hidden="true">—</span>`;
  return html`<${Async} state=${scopes} rows=${3}>
    ${(entries) => html`<div class="scope-picker">
      <table class="table table--narrow" aria-label="Scopes">
        <thead><tr><th scope="col">Resource</th><th scope="col">Read</th><th scope="col">Write</th></tr></thead>
        <tbody>
          ${resourcesOf(entries).map(
            (row) => html`<tr key=${row.resource}>
              <th scope="row" class="mono">${row.resource}</th>
              <td>${box(row.read, `${row.resource}: read`)}</td>
              <td>${box(row.write, `${row.resource}: write`)}</td>
            </tr>`,
          )}
        </tbody>
      </table>
      ${error && html`<p class="field__error" role="alert">${error}</p>`}
    </div>`}
  <//>`;
}

function CreateKey({ onCreated, onCancel }) {
  const [name, setName] = useState('');
  const [restricted, setRestricted] = useState(false);
  const [scopes, setScopes] = useState([]);
  const toggle = (scope, on) =>
    setScopes((previous) => (on ? [...previous, scope] : previous.filter((item) => item !== scope)));
  const [create, { busy, error }] = useAction(async (event) => {
    event.preventDefault();
    const body = await api.post('api-secrets', {
      name: name.trim(),
      ...(restricted ? { scopes } : {}),
    });
    onCreated(body.data);
  });
  const scopeError = error?.param?.startsWith('scopes') ? error.message : null;
  const restrictedEmpty = restricted && scopes.length === 0;
  return html`<${Card} title="Create an API key">
    <form class="form" onSubmit=${create} noValidate>
      <${TextInput} label="Name" required value=${name} onInput=${setName} placeholder="Production backend"
        hint="Say where the key is used, so you know what breaks if you revoke it." error=${fieldError(error, 'name')} />
      <fieldset class="library-fieldset">
        <legend>Access</legend>
        <div class="check"><input type="radio" id="key-full" name="key-access" checked=${!restricted} onChange=${() => setRestricted(false)} />
          <label for="key-full">Full access<span class="field__hint">Every operation of the API and the mailbox service.</span></label></div>
        <div class="check"><input type="radio" id="key-restricted" name="key-access" checked=${restricted} onChange=${() => setRestricted(true)} />
          <label for="key-restricted">Only the scopes I choose<span class="field__hint">Read lets the key list and fetch; write lets it create, change and delete.</span></label></div>
        ${restricted && html`<${ScopePicker} chosen=${scopes} onToggle=${toggle} error=${scopeError} />`}
      </fieldset>
      <${ErrorNotice} error=${error && error.param !== 'name' && !scopeError ? error : null} />
      <div class="form-actions">
        <${Button} type="submit" variant="primary" busy=${busy} disabled=${restrictedEmpty}>Create key<//>
        <${Button} onClick=${onCancel}>Cancel<//>
      </div>
      ${restrictedEmpty && html`<p class="muted small">Choose at least one scope, or give the key full access.</p>`}
    </form>
  <//>`;
}

export default function ApiKeys() {
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState(null);
  const keys = useApi(() => api.get('api-secrets').then(itemsOf));
  const [setActive, { error: stateError }] = useAction(async (key, active) => {
    await api.post(`api-secrets/${key.id}/${active ? 'reactivate' : 'revoke'}`);
    keys.setData((items) =>
      items.map((item) => (item.id === key.id ? { ...item, is_active: active } : item)),
    );
  });
  const remove = async (key) => {
    await api.del(`api-secrets/${key.id}`);
    keys.setData((items) => items.filter((item) => item.id !== key.id));
  };

  return html`<div class="page">
    <${PageHeader} title="API keys"
      description="Keys authenticate your servers on the API (Authorization: Bearer …) and on the mailbox service. A key can do what its creator's role allows (within its scopes), and stops working if they leave the workspace."
      actions=${
        !adding &&
        html`<${Button} variant="primary" onClick=${() => {
          setCreated(null);
          setAdding(true);
        }}>Create key<//>`
      } />
    ${created && html`<${SecretOnce} label=${`API key “${created.name}”`} value=${created.secret} />`}
    ${
      adding &&
      html`<${CreateKey} onCancel=${() => setAdding(false)} onCreated=${(key) => {
        setAdding(false);
        setCreated(key);
        keys.reload();
      }} />`
    }
    <${ErrorNotice} error=${stateError} />
    <${Card} title="Keys">
      <${Async} state=${keys} rows=${3}
        empty=${{ when: (items) => items.length === 0, title: 'No API keys yet', text: 'Create one for each server or integration.' }}>
        ${(items) =>
          html`<${Table} caption="API keys" rows=${items} columns=${[
            { label: 'Name', render: (key) => key.name },
            { label: 'Key', render: (key) => html`<span class="mono">${key.secret_prefix}…</span>` },
            {
              label: 'Scopes',
              render: (key) => (key.scopes?.length ? key.scopes.join(', ') : 'Full access'),
            },
            {
              label: 'Status',
              render: (key) =>
                html`<${Badge} tone=${key.is_active ? 'success' : 'danger'}>${key.is_active ? 'Active' : 'Revoked'}<//>`,
            },
            {
              label: 'Last used',
              render: (key) => (key.last_used_at ? formatDateTime(key.last_used_at) : 'Never'),
            },
            { label: 'Created', render: (key) => formatDateTime(key.created_at) },
            { label: 'Created by', render: (key) => key.created_by?.name ?? '—' },
            {
              label: 'Actions',
              render: (key) => html`<div class="row-actions">
              ${
                key.is_active
                  ? html`<${ConfirmButton} label="Revoke" buttonVariant="ghost" title=${`Revoke “${key.name}”?`}
                      message="Requests with this key fail at once. You can reactivate it later: the same key then works again."
                      onConfirm=${() => setActive(key, false)} />`
                  : html`<${Button} variant="ghost" onClick=${() => setActive(key, true)}>Reactivate<span class="visually-hidden"> ${key.name}</span><//>`
              }
              <${ConfirmButton} label="Delete" buttonVariant="ghost" title=${`Delete “${key.name}”?`}
                message="The key is removed for good; it can never be used again." onConfirm=${() => remove(key)} />
            </div>`,
            },
          ]} />`}
      <//>
    <//>
  </div>`;
}
