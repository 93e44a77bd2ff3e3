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

/** "memories:read, mailbox:write" → the list the API takes; blanks dropped. */
const parseScopes = (text) =>
  text
    .split(/[\s,]+/)
    .map((scope) => scope.trim())
    .filter(Boolean);

function CreateKey({ onCreated, onCancel }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState('');
  const [create, { busy, error }] = useAction(async (event) => {
    event.preventDefault();
    const list = parseScopes(scopes);
    const body = await api.post('api-secrets', {
      name: name.trim(),
      ...(list.length ? { scopes: list } : {}),
    });
    onCreated(body.data);
  });
  const scopeError = error?.param?.startsWith('scopes') ? error.message : null;
  return html`<${Card} title="Create an API key">
    <form class="form" onSubmit=${create} noValidate>
      <${TextInput} label="Name" required value=${name} onInput=${setName} placeholder="Production backend"
        hint="Say where the key is used, so you know what breaks if you revoke it." error=${fieldError(error, 'name')} />
      <${TextInput} label="Scopes" optional value=${scopes} onInput=${setScopes} placeholder="memories:read, mailbox:write"
        hint="Leave empty for full access. Separate scopes with commas, e.g. memories:read or mailbox:write."
        error=${scopeError} />
      <${ErrorNotice} error=${error && error.param !== 'name' && !scopeError ? error : null} />
      <div class="form-actions">
        <${Button} type="submit" variant="primary" busy=${busy}>Create key<//>
        <${Button} onClick=${onCancel}>Cancel<//>
      </div>
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
      description="Keys authenticate your servers on the API (Authorization: Bearer …) and on the mailbox service. Anyone holding one acts as your workspace."
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
