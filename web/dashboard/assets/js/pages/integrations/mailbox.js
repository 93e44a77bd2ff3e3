// The mailbox service in the dashboard: paste a mailbox key (kept in this tab only), then browse
// its inboxes, an inbox's threads, a thread's messages (the new text of each, attachments to
// download), reply, and write new messages. Every call goes to the mailbox's /v0 API directly.
import {
  Async,
  Badge,
  Button,
  Card,
  EmptyState,
  ErrorNotice,
  Loading,
  Notice,
  PageHeader,
  TextArea,
  TextInput,
} from '../../components/ui.js';
import { formatDateTime } from '../../format.js';
import { fieldError, useAction, useApi } from '../../hooks.js';
import { html, useState } from '../../lib.js';
import { href, navigate } from '../../router.js';
import {
  downloadAttachment,
  mailboxPath,
  mailboxRequest,
  mailboxUrl,
  useMailboxKey,
} from './mailbox-client.js';

const inboxHref = (inboxId) => href(`/mailbox/${encodeURIComponent(inboxId)}`);
const threadHref = (inboxId, threadId) =>
  href(`/mailbox/${encodeURIComponent(inboxId)}/${encodeURIComponent(threadId)}`);
const splitAddresses = (text) =>
  text
    .split(/[,;\n]+/)
    .map((address) => address.trim())
    .filter(Boolean);

function Connect({ onKey }) {
  const [value, setValue] = useState('');
  const [connect, { busy, error }] = useAction(async (event) => {
    event.preventDefault();
    const key = value.trim();
    await mailboxRequest(key, 'GET', '/inboxes', { query: { limit: 1 } });
    onKey(key);
  });
  return html`<${Card} title="Connect to the mailbox">
    <form class="form" onSubmit=${connect} noValidate>
      <p>The mailbox service gives your agents real e-mail addresses. It has its own API at
        <span class="mono break">${mailboxUrl()}/v0</span> and takes one of your API keys (with the
        <span class="mono">mailbox:read</span> and <span class="mono">mailbox:write</span> scopes, or full access)
        or a scoped mailbox key (<span class="mono">aik_…</span>).</p>
      <${TextInput} label="Mailbox API key" type="password" autocomplete="off" required value=${value}
        onInput=${setValue} hint="Kept in this browser tab only and sent only to the mailbox service; closing the tab forgets it." />
      <${ErrorNotice} error=${error} title="Could not connect" />
      <div class="form-actions"><${Button} type="submit" variant="primary" busy=${busy} disabled=${!value.trim()}>Connect<//></div>
    </form>
  <//>`;
}

function NewInbox({ mailboxKey, onCreated, onCancel }) {
  const [displayName, setDisplayName] = useState('');
  const [username, setUsername] = useState('');
  const [create, { busy, error }] = useAction(async (event) => {
    event.preventDefault();
    const inbox = await mailboxRequest(mailboxKey, 'POST', '/inboxes', {
      body: {
        ...(displayName.trim() ? { display_name: displayName.trim() } : {}),
        ...(username.trim() ? { username: username.trim() } : {}),
      },
    });
    onCreated(inbox);
  });
  return html`<form class="form" onSubmit=${create} noValidate>
    <${TextInput} label="Display name" optional value=${displayName} onInput=${setDisplayName} placeholder="Sales agent"
      error=${fieldError(error, 'display_name')} />
    <${TextInput} label="Username" optional value=${username} onInput=${setUsername} placeholder="sales"
      hint="The part before the @; left empty, one is made up." error=${fieldError(error, 'username')} />
    <${ErrorNotice} error=${error && !['display_name', 'username'].includes(error.param) ? error : null} title="Not created" />
    <div class="form-actions">
      <${Button} type="submit" variant="primary" busy=${busy}>Create inbox<//>
      <${Button} onClick=${onCancel}>Cancel<//>
    </div>
  </form>`;
}

function Inboxes({ mailboxKey, current }) {
  const [adding, setAdding] = useState(false);
  const inboxes = useApi(
    () => mailboxRequest(mailboxKey, 'GET', '/inboxes').then((body) => body.inboxes ?? []),
    [mailboxKey],
  );
  return html`<${Card} title="Inboxes" actions=${!adding && html`<${Button} onClick=${() => setAdding(true)}>New inbox<//>`}>
    ${
      adding &&
      html`<${NewInbox} mailboxKey=${mailboxKey} onCancel=${() => setAdding(false)} onCreated=${(inbox) => {
        setAdding(false);
        inboxes.reload();
        navigate(`/mailbox/${encodeURIComponent(inbox.inbox_id)}`);
      }} />`
    }
    <${Async} state=${inboxes} rows=${3}
      empty=${{ when: (items) => items.length === 0, title: 'No inboxes', text: 'This key reaches no inbox yet.' }}>
      ${(items) => html`<ul class="mailbox-list">
        ${items.map(
          (inbox) => html`<li key=${inbox.inbox_id}>
            <a href=${inboxHref(inbox.inbox_id)} aria-current=${inbox.inbox_id === current ? 'page' : undefined}>
              <span class="mailbox-list__title">${inbox.display_name || inbox.inbox_id}</span>
              ${inbox.display_name && html`<span class="muted small break">${inbox.inbox_id}</span>`}
            </a>
          </li>`,
        )}
      </ul>`}
    <//>
  <//>`;
}

function Compose({ mailboxKey, inboxId, onSent, onCancel }) {
  const [to, setTo] = useState('');
  const [subject, setSubject] = useState('');
  const [text, setText] = useState('');
  const [send, { busy, error }] = useAction(async (event) => {
    event.preventDefault();
    const message = await mailboxRequest(
      mailboxKey,
      'POST',
      mailboxPath('inboxes', inboxId, 'messages', 'send'),
      {
        body: { to: splitAddresses(to), subject, text },
      },
    );
    onSent(message);
  });
  const toError = error?.param?.startsWith('to') ? error.message : null;
  return html`<${Card} title="New message">
    <form class="form" onSubmit=${send} noValidate>
      <${TextInput} label="To" required value=${to} onInput=${setTo} placeholder="name@example.com"
        hint="Separate several addresses with commas." error=${toError} />
      <${TextInput} label="Subject" value=${subject} onInput=${setSubject} error=${fieldError(error, 'subject')} />
      <${TextArea} label="Message" rows=${6} value=${text} onInput=${setText} error=${fieldError(error, 'text')} />
      <${ErrorNotice} error=${error && !toError && !['subject', 'text'].includes(error.param) ? error : null} title="Not sent" />
      <div class="form-actions">
        <${Button} type="submit" variant="primary" busy=${busy}>Send<//>
        <${Button} onClick=${onCancel}>Cancel<//>
      </div>
    </form>
  <//>`;
}

function Threads({ mailboxKey, inboxId }) {
  const [composing, setComposing] = useState(false);
  const [sent, setSent] = useState(null);
  const threads = useApi(
    () =>
      mailboxRequest(mailboxKey, 'GET', mailboxPath('inboxes', inboxId, 'threads')).then(
        (body) => body.threads ?? [],
      ),
    [mailboxKey, inboxId],
  );
  return html`<div class="stack">
    ${
      sent &&
      (sent.status === 'rejected'
        ? html`<${Notice} kind="error">Message “${sent.subject || '(no subject)'}” was not delivered: ${refusalOf(sent)}<//>`
        : html`<${Notice} kind="success">Message “${sent.subject || '(no subject)'}” ${sent.status === 'sent' ? 'sent' : `is ${sent.status}`}.<//>`)
    }
    ${
      composing &&
      html`<${Compose} mailboxKey=${mailboxKey} inboxId=${inboxId} onCancel=${() => setComposing(false)}
        onSent=${(message) => {
          setComposing(false);
          setSent(message);
          threads.reload();
        }} />`
    }
    <${Card} title=${`Threads of ${inboxId}`} actions=${html`<div class="row-actions">
      <${Button} onClick=${threads.reload}>Refresh<//>
      ${
        !composing &&
        html`<${Button} variant="primary" onClick=${() => {
          setSent(null);
          setComposing(true);
        }}>New message<//>`
      }
    </div>`}>
      <${Async} state=${threads} rows=${4}
        empty=${{ when: (items) => items.length === 0, title: 'No mail yet', text: 'Threads appear here when mail arrives or is sent.' }}>
        ${(items) => html`<ul class="mailbox-list">
          ${items.map(
            (thread) => html`<li key=${thread.thread_id}>
              <a href=${threadHref(inboxId, thread.thread_id)}>
                <span class="mailbox-list__title">${thread.subject || '(no subject)'}
                  ${thread.labels?.includes('unread') && html` <${Badge} tone="info">unread<//>`}</span>
                <span class="muted small">${(thread.senders ?? []).join(', ')} · ${thread.message_count} message${thread.message_count === 1 ? '' : 's'} · ${formatDateTime(thread.timestamp)}</span>
                ${thread.preview && html`<span class="small">${thread.preview}</span>`}
              </a>
            </li>`,
          )}
        </ul>`}
      <//>
    <//>
  </div>`;
}

function Message({ mailboxKey, inboxId, message }) {
  const [save, { error }] = useAction((attachment) =>
    downloadAttachment(mailboxKey, inboxId, message, attachment),
  );
  const body = message.extracted_text || message.text || message.preview || '';
  // Why an outbound message did not reach someone: the relay's own answer, per recipient.
  const refused = (message.recipients ?? []).filter(
    (recipient) => typeof recipient === 'object' && ['rejected', 'deferred'].includes(recipient.status),
  );
  return html`<article class="mail-message" aria-label=${`Message from ${message.from}`}>
    <header class="mail-message__head">
      <strong class="break">${message.from}</strong>
      <span class="muted small">${formatDateTime(message.timestamp)}</span>
    </header>
    <p class="muted small break">To ${(message.to ?? []).join(', ')}${message.cc?.length ? ` · Cc ${message.cc.join(', ')}` : ''}
      ${message.status && !['received', 'sent'].includes(message.status) && html` <${Badge} tone="warn">${message.status}<//>`}</p>
    ${
      refused.length > 0 &&
      html`<ul class="list small" aria-label="Not delivered">
        ${refused.map(
          (recipient) =>
            html`<li key=${recipient.address}><strong class="break">${recipient.address}</strong>: ${recipient.status === 'deferred' ? 'not delivered yet, tried again later' : 'not delivered'}${recipient.last_response ? ` (${recipient.last_response})` : ''}</li>`,
        )}
      </ul>`
    }
    <pre class="mail-message__body">${body}</pre>
    ${
      message.attachments?.length > 0 &&
      html`<div class="row-actions">
        ${message.attachments.map(
          (attachment) => html`<${Button} key=${attachment.attachment_id} onClick=${() => save(attachment)}>
            Download ${attachment.filename || 'attachment'} <span class="muted small">(${Math.ceil(attachment.size / 1024)} KB)</span><//>`,
        )}
      </div>`
    }
    <${ErrorNotice} error=${error} title="The attachment could not be downloaded" />
  </article>`;
}

/** Why nobody got a message: the relay's answers, one per refused recipient. */
function refusalOf(message) {
  const answers = (message.recipients ?? [])
    .filter((recipient) => typeof recipient === 'object' && recipient.status === 'rejected')
    .map((recipient) => `${recipient.address}: ${recipient.last_response ?? 'refused'}`);
  return answers.length ? answers.join('; ') : 'every recipient was refused.';
}

/** `Ana <ana@example.com>` → `ana@example.com`, lower case. */
const addressOf = (text) => (/<([^>]+)>/.exec(text ?? '')?.[1] ?? text ?? '').trim().toLowerCase();

/**
 * Who a reply to `message` reaches, as the mailbox addresses it (docs/mailbox.md, "Reply"): the
 * Reply-To or the sender, or, for a message this inbox sent itself, that message's recipients.
 */
function replyRecipients(message, inboxId) {
  if (addressOf(message.from) === addressOf(inboxId)) return (message.to ?? []).join(', ');
  return message.reply_to?.[0] || message.from;
}

function Reply({ mailboxKey, inboxId, message, onSent }) {
  const [text, setText] = useState('');
  const [reply, { busy, error }] = useAction(async (event) => {
    event.preventDefault();
    await mailboxRequest(
      mailboxKey,
      'POST',
      mailboxPath('inboxes', inboxId, 'messages', message.message_id, 'reply'),
      {
        body: { text },
      },
    );
    setText('');
    onSent();
  });
  return html`<form class="form" onSubmit=${reply} noValidate>
    <${TextArea} label="Reply" rows=${4} value=${text} onInput=${setText} error=${fieldError(error, 'text')}
      hint=${`Goes to ${replyRecipients(message, inboxId)}, in this thread.`} />
    <${ErrorNotice} error=${error && error.param !== 'text' ? error : null} title="Not sent" />
    <div class="form-actions"><${Button} type="submit" variant="primary" busy=${busy} disabled=${!text.trim()}>Send reply<//></div>
  </form>`;
}

function Thread({ mailboxKey, inboxId, threadId }) {
  const thread = useApi(
    () => mailboxRequest(mailboxKey, 'GET', mailboxPath('inboxes', inboxId, 'threads', threadId)),
    [mailboxKey, inboxId, threadId],
  );
  return html`<${Card} title=${thread.data?.subject || 'Thread'} actions=${html`<a href=${inboxHref(inboxId)}>All threads</a>`}>
    <${Async} state=${thread} rows=${4}>
      ${(data) => {
        const messages = data.messages ?? [];
        const last = messages[messages.length - 1];
        return html`<div class="stack">
          ${messages.map((message) => html`<${Message} key=${message.message_id} mailboxKey=${mailboxKey} inboxId=${inboxId} message=${message} />`)}
          ${last && html`<${Reply} mailboxKey=${mailboxKey} inboxId=${inboxId} message=${last} onSent=${thread.reload} />`}
        </div>`;
      }}
    <//>
  <//>`;
}

export default function Mailbox({ params }) {
  const [mailboxKey, setMailboxKey, viaSession] = useMailboxKey();
  const inboxId = params.inbox ?? null;
  const threadId = params.thread ?? null;
  const forget = () => {
    setMailboxKey(null);
    navigate('/mailbox');
  };
  // Keyed by inbox and thread: another inbox's list, still on screen while this one loads,
  // would be clicked as if it were this inbox's (and was, by a test on a slow machine).
  let content;
  if (!mailboxKey && viaSession) content = html`<${Loading} rows=${2} />`;
  else if (!mailboxKey) content = html`<${Connect} onKey=${setMailboxKey} />`;
  else
    content = html`<div class="mailbox">
      <${Inboxes} mailboxKey=${mailboxKey} current=${inboxId} />
      <div class="mailbox__main">
        ${
          !inboxId
            ? html`<${Card}><${EmptyState} title="Pick an inbox">Its threads open here.<//><//>`
            : threadId
              ? html`<${Thread} key=${`${inboxId}/${threadId}`} mailboxKey=${mailboxKey} inboxId=${inboxId} threadId=${threadId} />`
              : html`<${Threads} key=${inboxId} mailboxKey=${mailboxKey} inboxId=${inboxId} />`
        }
      </div>
    </div>`;
  return html`<div class="page">
    <${PageHeader} title="Mailbox" description=${
      viaSession
        ? "Your agents' inboxes on the mailbox service, reached as you (your role lets you): read threads, reply, write new mail and create inboxes."
        : "Your agents' inboxes on the mailbox service: read threads, reply and write new mail."
    }
      actions=${mailboxKey && html`<${Button} onClick=${forget}>${viaSession ? 'Use a key instead' : 'Forget key'}<//>`} />
    ${content}
  </div>`;
}
