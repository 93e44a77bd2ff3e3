// Webhook endpoints: the list, a form to add one (its signing secret is shown once), and the
// catalogue of event types with when each fires. Each endpoint's page has its delivery log.
import { api, fetchPage } from '../../api.js';
import {
  Async,
  Badge,
  Button,
  Card,
  ErrorNotice,
  Loading,
  LoadMore,
  Notice,
  PageHeader,
  SecretOnce,
  Table,
  TextInput,
} from '../../components/ui.js';
import { formatDateTime } from '../../format.js';
import { fieldError, useAction, useApi } from '../../hooks.js';
import { html, useState } from '../../lib.js';
import { href } from '../../router.js';
import { ALL_EVENTS, EventPicker, eventsLabel, loadEventTypes } from './event-types.js';

function CreateEndpoint({ types, catalogueError, onCreated, onCancel }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState([ALL_EVENTS]);
  const [create, { busy, error }] = useAction(async (event) => {
    event.preventDefault();
    const body = { url: url.trim(), subscribed_events: events.length ? events : [ALL_EVENTS] };
    if (description.trim()) body.description = description.trim();
    const created = await api.post('webhooks/endpoints', body);
    onCreated(created.data);
  });
  return html`<${Card} title="Add an endpoint">
    <form class="form" onSubmit=${create} noValidate>
      <${TextInput} label="Endpoint URL" type="url" required value=${url} onInput=${setUrl}
        placeholder="https://example.com/webhooks/understudy"
        hint="We POST each event here as JSON, signed with the endpoint's secret (Service-Signature)."
        error=${fieldError(error, 'url')} />
      <${TextInput} label="Description" optional value=${description} onInput=${setDescription}
        error=${fieldError(error, 'description')} />
      <${EventPicker} types=${types} value=${events} onChange=${setEvents} />
      ${
        catalogueError &&
        html`<${Notice} kind="warn">The list of event types could not be loaded (${catalogueError.message}); the endpoint can still receive all events.<//>`
      }
      <${ErrorNotice} error=${error && !['url', 'description'].includes(error.param) ? error : null} />
      <div class="form-actions">
        <${Button} type="submit" variant="primary" busy=${busy}>Add endpoint<//>
        <${Button} onClick=${onCancel}>Cancel<//>
      </div>
    </form>
  <//>`;
}

function EndpointTable({ items }) {
  return html`<${Table} caption="Webhook endpoints" rows=${items} columns=${[
    {
      label: 'Endpoint',
      render: (row) => html`<a class="mono break" href=${href(`/webhooks/${row.id}`)}>${row.url}</a>
        ${row.description && html`<div class="muted small">${row.description}</div>`}`,
    },
    { label: 'Events', render: (row) => eventsLabel(row.subscribed_events) },
    {
      label: 'Status',
      render: (row) =>
        html`<${Badge} tone=${row.enabled ? 'success' : 'warn'}>${row.enabled ? 'Active' : 'Paused'}<//>`,
    },
    { label: 'Created', render: (row) => formatDateTime(row.created_at) },
  ]} />`;
}

export default function Webhooks() {
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState(null);
  const types = useApi(loadEventTypes);
  const [pages, setPages] = useState({ extra: [], cursor: undefined });
  const endpoints = useApi(async () => {
    const page = await fetchPage('webhooks/endpoints');
    setPages({ extra: [], cursor: page.nextCursor });
    return page.items;
  });
  const [more, { busy: loadingMore, error: moreError }] = useAction(async () => {
    const page = await fetchPage('webhooks/endpoints', { cursor: pages.cursor });
    setPages((previous) => ({ extra: [...previous.extra, ...page.items], cursor: page.nextCursor }));
  });

  return html`<div class="page">
    <${PageHeader} title="Webhooks"
      description="Send events to your own systems as they happen: meetings created and ended, transcripts and analyses ready."
      actions=${
        !adding &&
        html`<${Button} variant="primary" onClick=${() => {
          setCreated(null);
          setAdding(true);
        }}>Add endpoint<//>`
      } />
    ${
      created &&
      html`<div class="stack">
        <${SecretOnce} label=${`Signing secret of ${created.url}`} value=${created.signing_secret}
          note="Copy it now and keep it with your receiver: it verifies our signature and is not shown again." />
      </div>`
    }
    ${
      adding &&
      (types.loading && !types.data
        ? html`<${Loading} rows=${4} />`
        : html`<${CreateEndpoint} types=${types.data ?? []} catalogueError=${types.error}
            onCancel=${() => setAdding(false)}
            onCreated=${(endpoint) => {
              setAdding(false);
              setCreated(endpoint);
              endpoints.reload();
            }} />`)
    }
    <${Card} title="Endpoints">
      <${Async} state=${endpoints} rows=${3}
        empty=${{
          when: (items) => items.length === 0,
          title: 'No endpoints yet',
          text: 'Add an endpoint to receive events as signed HTTPS requests.',
        }}>
        ${(items) => html`<${EndpointTable} items=${[...items, ...pages.extra]} />
          <${ErrorNotice} error=${moreError} />
          <${LoadMore} hasMore=${Boolean(pages.cursor)} busy=${loadingMore} onClick=${more} />`}
      <//>
    <//>
    <${Card} title="Event types">
      <${Async} state=${types} rows=${4}>
        ${(list) => html`<dl class="event-types">
          ${list.map(
            (type) => html`<div key=${type.type}>
              <dt class="mono">${type.type}${type.fires === false && html` <${Badge}>planned<//>`}</dt>
              <dd>${type.description}</dd>
            </div>`,
          )}
        </dl>`}
      <//>
    <//>
  </div>`;
}
