// One webhook endpoint: pause or resume it, rotate its secret (shown once), delete it, and its
// delivery log — every attempt with its answer, the payload that was sent, and "Redeliver".
import { api, fetchPage } from '../../api.js';
import {
  Async,
  Badge,
  Button,
  Card,
  ConfirmButton,
  Details,
  Dialog,
  ErrorNotice,
  LoadMore,
  Notice,
  PageHeader,
  SecretOnce,
  StatusBadge,
  Table,
} from '../../components/ui.js';
import { formatDateTime } from '../../format.js';
import { useAction, useApi } from '../../hooks.js';
import { html, useState } from '../../lib.js';
import { href, navigate } from '../../router.js';
import { eventsLabel } from './event-types.js';

const OUTCOME_TONES = { succeeded: 'success', retry_scheduled: 'warn', failed: 'danger', dead: 'danger' };

/** The delivery's body as sent, and the receiver's answer to this attempt. */
function PayloadDialog({ attempt, onClose }) {
  const delivery = useApi(
    () => (attempt ? api.get(`webhooks/deliveries/${attempt.delivery_id}`).then((body) => body.data) : null),
    [attempt?.id],
  );
  return html`<${Dialog} open=${Boolean(attempt)} title=${`Delivery of ${attempt?.event ?? ''}`} onClose=${onClose}
    footer=${html`<${Button} onClick=${onClose}>Close<//>`}>
    ${
      attempt &&
      html`<${Details} items=${[
        ['Event id', html`<span class="mono">${attempt.event_id}</span>`],
        ['Attempt', `${attempt.attempt_number} (${attempt.trigger})`],
        ['Response', attempt.status_code ?? attempt.error ?? 'No answer'],
        ['Took', `${attempt.duration_ms} ms`],
      ]} />
      <h3>Payload sent</h3>
      <${Async} state=${delivery} rows=${4}>
        ${(data) => html`<pre class="code-block" data-payload tabindex="0">${JSON.stringify(data?.payload, null, 2)}</pre>`}
      <//>
      <h3>Response body</h3>
      <pre class="code-block" tabindex="0">${attempt.response_excerpt || '(empty)'}</pre>`
    }
  <//>`;
}

function DeliveryLog({ endpointId }) {
  const [viewing, setViewing] = useState(null);
  const [notice, setNotice] = useState(null);
  const [extra, setExtra] = useState({ items: [], cursor: null });
  const path = `webhooks/endpoints/${endpointId}/deliveries`;
  const log = useApi(async () => {
    const page = await fetchPage(path);
    setExtra({ items: [], cursor: page.nextCursor });
    return page.items;
  }, [endpointId]);
  const [more, { busy: loadingMore }] = useAction(async () => {
    const page = await fetchPage(path, { cursor: extra.cursor });
    setExtra((previous) => ({ items: [...previous.items, ...page.items], cursor: page.nextCursor }));
  });
  const [redeliver, { error }] = useAction(async (attempt) => {
    await api.post(`webhooks/deliveries/${attempt.delivery_id}/redeliver`);
    setNotice(`${attempt.event} is being sent again with the same event id. Refresh to see the new attempt.`);
  });

  return html`<${Card} title="Delivery log" actions=${html`<${Button} onClick=${log.reload} busy=${log.loading && Boolean(log.data)}>Refresh<//>`}>
    ${notice && html`<${Notice} kind="success">${notice}<//>`}
    <${ErrorNotice} error=${error} title="The redelivery was refused" />
    <${Async} state=${log} rows=${4}
      empty=${{
        when: (items) => items.length === 0,
        title: 'Nothing delivered yet',
        text: 'Attempts appear here as events are sent to this endpoint.',
      }}>
      ${(items) => html`<${Table} caption="Delivery attempts" rows=${[...items, ...extra.items]} columns=${[
        { label: 'Event', render: (row) => html`<span class="mono">${row.event}</span>` },
        { label: 'When', render: (row) => formatDateTime(row.created_at) },
        {
          label: 'Attempt',
          render: (row) => `${row.attempt_number}${row.trigger === 'manual' ? ' (redelivery)' : ''}`,
        },
        {
          label: 'Response',
          render: (row) =>
            row.status_code
              ? `HTTP ${row.status_code}`
              : html`<span class="muted">${row.error ?? 'No answer'}</span>`,
        },
        {
          label: 'Outcome',
          render: (row) =>
            html`<${Badge} tone=${OUTCOME_TONES[row.outcome] ?? 'neutral'}>${row.outcome.replaceAll('_', ' ')}<//>`,
        },
        { label: 'Delivery', render: (row) => html`<${StatusBadge} status=${row.delivery_status} />` },
        {
          label: 'Actions',
          render: (row) => html`<div class="row-actions">
            <${Button} variant="ghost" onClick=${() => setViewing(row)}>View<span class="visually-hidden"> ${row.event} attempt ${row.attempt_number}</span><//>
            <${Button} variant="ghost" onClick=${() => redeliver(row)}>Redeliver<span class="visually-hidden"> ${row.event}</span><//>
          </div>`,
        },
      ]} />
      <${LoadMore} hasMore=${Boolean(extra.cursor)} busy=${loadingMore} onClick=${more} />`}
    <//>
    <${PayloadDialog} attempt=${viewing} onClose=${() => setViewing(null)} />
  <//>`;
}

export default function WebhookEndpoint({ params }) {
  const [secret, setSecret] = useState(null);
  const endpoint = useApi(
    () => api.get(`webhooks/endpoints/${params.id}`).then((body) => body.data),
    [params.id],
  );
  const [toggle, { busy: toggling, error: toggleError }] = useAction(async () => {
    const body = await api.patch(`webhooks/endpoints/${params.id}`, { enabled: !endpoint.data.enabled });
    endpoint.setData(body.data);
  });
  const rotate = async () => {
    const body = await api.post(`webhooks/endpoints/${params.id}/rotate-secret`);
    setSecret(body.data.signing_secret);
    endpoint.setData(body.data);
  };
  const remove = async () => {
    await api.del(`webhooks/endpoints/${params.id}`);
    navigate('/webhooks');
  };

  const data = endpoint.data;
  return html`<div class="page">
    <${PageHeader} title="Webhook endpoint" description=${data?.url ?? ' '}
      back=${{ href: href('/webhooks'), label: 'Webhooks' }}
      actions=${
        data &&
        html`<${Button} busy=${toggling} onClick=${toggle}>${data.enabled ? 'Pause' : 'Resume'}<//>
        <${ConfirmButton} label="Rotate secret" buttonVariant="secondary" variant="primary"
          message="A new signing secret is issued and shown once. The current one keeps signing beside it for 24 hours, so you can update your receiver without missing events."
          onConfirm=${rotate} />
        <${ConfirmButton} label="Delete" title="Delete this endpoint?"
          message="Events stop going to this URL and deliveries not yet made are cancelled. This cannot be undone."
          onConfirm=${remove} />`
      } />
    <${Async} state=${endpoint} rows=${3}>
      ${(data) => html`<${ErrorNotice} error=${toggleError} />
        ${secret && html`<${SecretOnce} label="New signing secret" value=${secret} />`}
        ${
          !data.enabled &&
          html`<${Notice} kind="warn">Paused: events are held and sent when you resume the endpoint.<//>`
        }
        <${Card} title="Settings">
          <${Details} items=${[
            ['URL', html`<span class="mono break">${data.url}</span>`],
            ['Description', data.description || '—'],
            ['Events', eventsLabel(data.subscribed_events)],
            ['Status', data.enabled ? 'Active' : 'Paused'],
            [
              'Previous secret valid until',
              data.previous_secret_expires_at ? formatDateTime(data.previous_secret_expires_at) : '—',
            ],
            ['Created', formatDateTime(data.created_at)],
          ]} />
        <//>
        <${DeliveryLog} endpointId=${data.id} />`}
    <//>
  </div>`;
}
