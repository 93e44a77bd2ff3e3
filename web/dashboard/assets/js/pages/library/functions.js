// Custom functions: webhooks the persona can call during a meeting. List, create, edit, delete;
// the parameters' JSON Schema in a validated JSON editor; the signing secret shown once (on create
// and on rotate); "Send a test call" (POST /custom-functions/{id}/test) with its status and answer.
import { api, itemsOf } from '../../api.js';
import { JsonField, parseJson, prettyJson } from '../../components/json-field.js';
import {
  Async,
  Button,
  Card,
  ConfirmButton,
  Details,
  Dialog,
  ErrorNotice,
  PageHeader,
  SecretOnce,
  Select,
  StatusBadge,
  Table,
  TextArea,
  TextInput,
} from '../../components/ui.js';
import { fieldError, useAction, useApi } from '../../hooks.js';
import { html, useState } from '../../lib.js';
import { clip, dataOf, FormDialog, FormError, useValues } from './common.js';

const FIELDS = [
  'name',
  'description',
  'parameters_schema',
  'execution_mode',
  'webhook_url',
  'webhook_secret',
  'timeout_ms',
];
const EMPTY_SCHEMA = { type: 'object', properties: {}, required: [] };

function FunctionForm({ fn, onClose, onSaved }) {
  const [values, set] = useValues({
    name: fn?.name ?? '',
    description: fn?.description ?? '',
    parameters_schema: prettyJson(fn?.parameters_schema ?? EMPTY_SCHEMA),
    execution_mode: 'webhook',
    webhook_url: fn?.webhook_url ?? '',
    webhook_secret: '',
    timeout_ms: String(fn?.timeout_ms ?? 5000),
  });
  const [save, { busy, error }] = useAction(async () => {
    const schema = parseJson(values.parameters_schema, { object: true });
    if (schema.error) return;
    const body = {
      name: values.name,
      description: values.description,
      parameters_schema: schema.value,
      execution_mode: values.execution_mode,
      webhook_url: values.webhook_url,
      timeout_ms: Number(values.timeout_ms),
    };
    if (values.webhook_secret) body.webhook_secret = values.webhook_secret;
    const answer = fn
      ? await api.patch(`custom-functions/${fn.id}`, body)
      : await api.post('custom-functions', body);
    onSaved(dataOf(answer));
  });
  return html`<${FormDialog} open title=${fn ? `Edit ${fn.name}` : 'New custom function'} onClose=${onClose} onSubmit=${save}
      busy=${busy} submitLabel=${fn ? 'Save function' : 'Create function'}>
    <${TextInput} label="Name" value=${values.name} onInput=${set('name')} required maxlength="64" class="input mono"
      hint="The name the model calls: letters, digits, _ or -." error=${fieldError(error, 'name')} />
    <${TextArea} label="Description" optional rows=${3} value=${values.description} onInput=${set('description')} maxlength="1024"
      hint="What it does and when to call it; the model reads this." error=${fieldError(error, 'description')} />
    <${JsonField} label="Parameters (JSON Schema)" object rows=${8} value=${values.parameters_schema} onInput=${set('parameters_schema')}
      hint='The arguments, with "type": "object" at the top.' error=${fieldError(error, 'parameters_schema')} />
    <div class="form-grid">
      <${Select} label="Runs as" value=${values.execution_mode} onChange=${set('execution_mode')}
        options=${[{ value: 'webhook', label: 'Webhook (POST to a URL)' }]} error=${fieldError(error, 'execution_mode')} />
      <${TextInput} label="Timeout (ms)" type="number" min="100" max="30000" step="100" value=${values.timeout_ms}
        onInput=${set('timeout_ms')} hint="100 to 30,000." error=${fieldError(error, 'timeout_ms')} />
    </div>
    <${TextInput} label="Webhook URL" type="url" value=${values.webhook_url} onInput=${set('webhook_url')} required
      hint="Where each call is POSTed, signed with the secret." error=${fieldError(error, 'webhook_url')} />
    <${TextInput} label=${fn ? 'New signing secret' : 'Signing secret'} optional value=${values.webhook_secret} onInput=${set('webhook_secret')}
      autocomplete="off" hint=${fn ? 'Leave empty to keep the current one (use Rotate for a generated one).' : 'Leave empty to have one generated (shown once).'}
      error=${fieldError(error, 'webhook_secret')} />
    <${FormError} error=${error} fields=${FIELDS} title="The function was not saved" />
  <//>`;
}

/** The receiver's answer for reading: JSON pretty-printed, anything else as it came. */
function answerText(body) {
  if (body === null || body === undefined || body === '') return '(no answer)';
  if (typeof body !== 'string') return prettyJson(body);
  const parsed = parseJson(body);
  return parsed.error ? body : prettyJson(parsed.value);
}

/** Sends a test call with arguments typed as JSON and shows what the endpoint answered. */
function TestCall({ fn, onClose }) {
  const [args, setArgs] = useState('{}');
  const [result, setResult] = useState(null);
  const [send, { busy, error }] = useAction(async () => {
    const parsed = parseJson(args, { object: true });
    if (parsed.error) return;
    setResult(dataOf(await api.post(`custom-functions/${fn.id}/test`, { arguments: parsed.value })));
  });
  const ok = result && (result.ok ?? (!result.error && result.status >= 200 && result.status < 300));
  return html`<${Dialog} open title=${`Test ${fn.name}`} onClose=${onClose}>
    <form class="form" novalidate onSubmit=${(event) => {
      event.preventDefault();
      send();
    }}>
      <${JsonField} label="Arguments (JSON)" object rows=${6} value=${args} onInput=${setArgs}
        hint="Sent to your webhook like a call from a meeting, signed with the secret." />
      <${ErrorNotice} error=${error} title="The test call was not sent" />
      ${
        result &&
        html`<div class="test-result" data-test-result>
          <${Details} items=${[
            ['Result', html`<${StatusBadge} status=${ok ? 'succeeded' : 'failed'} />`],
            ['HTTP status', result.status ?? '—'],
            [
              'Duration',
              result.duration_ms === null || result.duration_ms === undefined
                ? '—'
                : `${result.duration_ms} ms`,
            ],
          ]} />
          ${result.error && html`<p class="field__error">${result.error}</p>`}
          ${ok && html`<p class="muted small">A persona in a meeting would get this answer.</p>`}
          <p class="muted small">Answer</p>
          <pre class="code-block" data-test-answer>${answerText(result.response_body)}</pre>
          ${result.response_truncated && html`<p class="muted small">The answer was cut at 8,192 characters.</p>`}
        </div>`
      }
      <div class="dialog__footer">
        <${Button} onClick=${onClose}>Close<//>
        <${Button} type="submit" variant="primary" busy=${busy}>Send test call<//>
      </div>
    </form>
  <//>`;
}

export default function Functions() {
  const state = useApi(() => api.get('custom-functions').then(itemsOf));
  const [editing, setEditing] = useState(null);
  const [testing, setTesting] = useState(null);
  const [secret, setSecret] = useState(null);
  const saved = ({ webhook_secret: newSecret, ...fn }) => {
    state.setData((items) =>
      items.some((item) => item.id === fn.id)
        ? items.map((item) => (item.id === fn.id ? fn : item))
        : [fn, ...items],
    );
    if (newSecret) setSecret({ name: fn.name, value: newSecret });
    setEditing(null);
  };
  const rotate = async (fn) => saved(dataOf(await api.post(`custom-functions/${fn.id}/rotate-secret`)));
  const remove = async (fn) => {
    await api.del(`custom-functions/${fn.id}`);
    state.setData((items) => items.filter((item) => item.id !== fn.id));
  };
  return html`<div class="page">
    <${PageHeader} title="Custom functions" description="Webhooks your personas can call during a meeting, e.g. to look up an order."
      actions=${html`<${Button} variant="primary" onClick=${() => setEditing('new')}>New function<//>`} />
    ${
      secret &&
      html`<div class="library-secret">
        <${SecretOnce} label=${`Signing secret of ${secret.name}`} value=${secret.value}
          note="Copy it now to verify the signature of each call: it is not shown again." />
        <${Button} variant="ghost" onClick=${() => setSecret(null)}>Done<//>
      </div>`
    }
    <${Async} state=${state} rows=${4}
      empty=${{ when: (items) => items.length === 0, title: 'No custom functions yet', text: 'Create one, then attach it to a scenario.' }}>
      ${(items) => html`<${Card}>
        <${Table} caption="Custom functions" rows=${items} columns=${[
          {
            label: 'Function',
            render: (row) =>
              html`<code>${row.name}</code><div class="muted small">${clip(row.description, 90)}</div>`,
          },
          {
            label: 'Webhook URL',
            className: 'library-wide',
            render: (row) => html`<span class="mono small break">${row.webhook_url}</span>`,
          },
          { label: 'Timeout', render: (row) => `${row.timeout_ms} ms` },
          { label: 'Secret', render: (row) => html`<span class="mono">…${row.webhook_secret_last4}</span>` },
          {
            label: 'Actions',
            render: (row) => html`<div class="form-actions">
              <${Button} onClick=${() => setTesting(row)} aria-label=${`Send a test call to ${row.name}`}>Send a test call<//>
              <${Button} onClick=${() => setEditing(row)} aria-label=${`Edit ${row.name}`}>Edit<//>
              <${ConfirmButton} label="Rotate secret" title=${`Rotate the secret of ${row.name}?`} variant="primary" buttonVariant="ghost"
                message="A new secret is generated and the old one stops working at once." onConfirm=${() => rotate(row)} />
              <${ConfirmButton} label="Delete" title=${`Delete ${row.name}?`} buttonVariant="ghost"
                message="It is detached from every scenario. This cannot be undone." onConfirm=${() => remove(row)} />
            </div>`,
          },
        ]} />
      <//>`}
    <//>
    ${
      editing &&
      html`<${FunctionForm} key=${editing === 'new' ? 'new' : editing.id} fn=${editing === 'new' ? null : editing}
      onClose=${() => setEditing(null)} onSaved=${saved} />`
    }
    ${testing && html`<${TestCall} key=${testing.id} fn=${testing} onClose=${() => setTesting(null)} />`}
  </div>`;
}
