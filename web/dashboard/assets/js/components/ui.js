// The dashboard's building blocks. Every page is made of these, so spacing, focus, loading and
// error states look and behave the same everywhere (and axe-core has one place to be satisfied).
import { html, useEffect, useRef, useState } from '../lib.js';

let nextId = 0;
/** A stable id for label/input pairs. */
export function useId(prefix = 'f') {
  const ref = useRef(null);
  if (ref.current === null) ref.current = `${prefix}-${++nextId}`;
  return ref.current;
}

export function PageHeader({ title, description, actions, back }) {
  return html`<header class="page-header">
    <div class="page-header__text">
      ${back && html`<a class="back-link" href=${back.href}>← ${back.label}</a>`}
      <h1 tabindex="-1" data-page-title>${title}</h1>
      ${description && html`<p class="muted">${description}</p>`}
    </div>
    ${actions && html`<div class="page-header__actions">${actions}</div>`}
  </header>`;
}

export function Button({ variant = 'secondary', type = 'button', busy, children, ...rest }) {
  return html`<button type=${type} class=${`button button--${variant}`} aria-busy=${busy ? 'true' : undefined}
    disabled=${busy || rest.disabled} ...${rest}>${busy && html`<span class="spinner spinner--small" aria-hidden="true"></span>`}${children}</button>`;
}

export function LinkButton({ variant = 'secondary', children, ...rest }) {
  return html`<a class=${`button button--${variant}`} ...${rest}>${children}</a>`;
}

/** A labelled control with its hint and the API's error for it. `children` receives the id. */
export function Field({ label, hint, error, children, optional }) {
  const id = useId();
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return html`<div class=${`field${error ? ' field--invalid' : ''}`}>
    <label for=${id}>${label}${optional && html` <span class="muted">(optional)</span>`}</label>
    ${children({ id, 'aria-describedby': describedBy, 'aria-invalid': error ? 'true' : undefined })}
    ${hint && html`<p class="field__hint" id=${`${id}-hint`}>${hint}</p>`}
    ${error && html`<p class="field__error" id=${`${id}-error`}>${error}</p>`}
  </div>`;
}

export function TextInput({ label, hint, error, optional, value, onInput, ...rest }) {
  return html`<${Field} label=${label} hint=${hint} error=${error} optional=${optional}>
    ${(ids) => html`<input class="input" value=${value ?? ''} onInput=${(event) => onInput?.(event.currentTarget.value)} ...${ids} ...${rest} />`}
  <//>`;
}

export function TextArea({ label, hint, error, optional, value, onInput, rows = 4, ...rest }) {
  return html`<${Field} label=${label} hint=${hint} error=${error} optional=${optional}>
    ${(ids) => html`<textarea class="input" rows=${rows} value=${value ?? ''} onInput=${(event) => onInput?.(event.currentTarget.value)} ...${ids} ...${rest}></textarea>`}
  <//>`;
}

/** `options`: `[{ value, label }]`. */
export function Select({ label, hint, error, optional, value, onChange, options, ...rest }) {
  return html`<${Field} label=${label} hint=${hint} error=${error} optional=${optional}>
    ${(
      ids,
    ) => html`<select class="input" value=${value ?? ''} onChange=${(event) => onChange?.(event.currentTarget.value)} ...${ids} ...${rest}>
      ${options.map((option) => html`<option value=${option.value}>${option.label}</option>`)}
    </select>`}
  <//>`;
}

export function Checkbox({ label, hint, checked, onChange, ...rest }) {
  const id = useId('c');
  return html`<div class="check">
    <input type="checkbox" id=${id} checked=${Boolean(checked)} onChange=${(event) => onChange?.(event.currentTarget.checked)} ...${rest} />
    <label for=${id}>${label}${hint && html`<span class="field__hint">${hint}</span>`}</label>
  </div>`;
}

/** A whole-form error in plain words (the API's `error.message`). */
export function ErrorNotice({ error, title = 'That did not work' }) {
  if (!error) return null;
  return html`<div class="notice notice--error" role="alert">
    <strong>${title}</strong>
    <p>${error.message}</p>
    ${error.requestId && html`<p class="muted small">Request ${error.requestId}</p>`}
  </div>`;
}

export function Notice({ kind = 'info', children }) {
  return html`<div class=${`notice notice--${kind}`} role=${kind === 'success' ? 'status' : undefined}>${children}</div>`;
}

/** Placeholder rows of the size of the content to come, so nothing shifts when it arrives. */
export function Loading({ rows = 3, label = 'Loading…' }) {
  return html`<div class="skeleton" role="status" aria-live="polite">
    <span class="visually-hidden">${label}</span>
    ${Array.from({ length: rows }, () => html`<div class="skeleton__row" aria-hidden="true"></div>`)}
  </div>`;
}

export function EmptyState({ title, children, action }) {
  return html`<div class="empty">
    <p class="empty__title">${title}</p>
    ${children && html`<p class="muted">${children}</p>`}
    ${action}
  </div>`;
}

/** A view's data states in one place: loading, error (with retry), empty, or the content. */
export function Async({ state, empty, rows, children }) {
  if (state.loading && !state.data) return html`<${Loading} rows=${rows} />`;
  if (state.error) {
    return html`<div>
      <${ErrorNotice} error=${state.error} title="This could not be loaded" />
      <${Button} onClick=${state.reload}>Try again<//>
    </div>`;
  }
  if (empty?.when(state.data))
    return html`<${EmptyState} title=${empty.title} action=${empty.action}>${empty.text}<//>`;
  return children(state.data);
}

export function Badge({ tone = 'neutral', children }) {
  return html`<span class=${`badge badge--${tone}`}>${children}</span>`;
}

const STATUS_TONES = {
  created: 'neutral',
  active: 'info',
  ended: 'success',
  completed: 'success',
  processing: 'info',
  not_started: 'neutral',
  failed: 'danger',
  succeeded: 'success',
  pending: 'info',
  paused: 'warn',
  revoked: 'danger',
  disabled: 'warn',
  enabled: 'success',
};
export function StatusBadge({ status }) {
  return html`<${Badge} tone=${STATUS_TONES[status] ?? 'neutral'}>${String(status ?? '—').replaceAll('_', ' ')}<//>`;
}

/**
 * A table that becomes stacked cards on a phone. `columns`: `[{ label, render(row), className }]`;
 * `rowKey(row)`.
 */
export function Table({ caption, columns, rows, rowKey = (row) => row.id }) {
  return html`<div class="table-wrap">
    <table class="table">
      ${caption && html`<caption class="visually-hidden">${caption}</caption>`}
      <thead><tr>${columns.map((column) => html`<th scope="col" class=${column.className}>${column.label}</th>`)}</tr></thead>
      <tbody>
        ${rows.map(
          (row) => html`<tr key=${rowKey(row)}>
            ${columns.map((column) => html`<td data-label=${column.label} class=${column.className}>${column.render(row)}</td>`)}
          </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** "Load more" under a cursor list. */
export function LoadMore({ hasMore, busy, onClick }) {
  if (!hasMore) return null;
  return html`<div class="load-more"><${Button} busy=${busy} onClick=${onClick}>Load more<//></div>`;
}

/** A modal dialog (native <dialog>: focus trapped, Escape closes). */
export function Dialog({ open, title, onClose, children, footer }) {
  const ref = useRef(null);
  const id = useId('d');
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return html`<dialog ref=${ref} class="dialog" aria-labelledby=${id} onClose=${onClose} onCancel=${onClose}>
    ${
      open &&
      html`<div class="dialog__body">
      <h2 id=${id}>${title}</h2>
      ${children}
      ${footer && html`<div class="dialog__footer">${footer}</div>`}
    </div>`
    }
  </dialog>`;
}

/** Asks before something that cannot be undone; `onConfirm` may throw an ApiError (shown). */
export function ConfirmButton({
  label,
  title,
  message,
  confirmLabel = label,
  variant = 'danger',
  onConfirm,
  buttonVariant,
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      setOpen(false);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return html`<${Button} variant=${buttonVariant ?? variant} onClick=${() => setOpen(true)}>${label}<//>
    <${Dialog} open=${open} title=${title ?? label} onClose=${() => setOpen(false)}
      footer=${html`<${Button} onClick=${() => setOpen(false)}>Cancel<//><${Button} variant=${variant} busy=${busy} onClick=${confirm}>${confirmLabel}<//>`}>
      <p>${message}</p>
      <${ErrorNotice} error=${error} />
    <//>`;
}

/** A secret shown once (a new key, a webhook secret) with a copy button. */
export function SecretOnce({ label, value, note = 'Copy it now: it is not shown again.' }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return html`<div class="secret" role="status">
    <p><strong>${label}</strong> — ${note}</p>
    <div class="secret__row">
      <code class="secret__value" data-secret>${value}</code>
      <${Button} onClick=${copy}>${copied ? 'Copied' : 'Copy'}<//>
    </div>
  </div>`;
}

/** Copies a link; `name` tells a screen reader which one when a page lists several. */
export function CopyLink({ url, name, label = 'Copy link' }) {
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard.writeText(url).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return html`<${Button} variant="ghost" onClick=${copy}>${copied ? 'Copied' : label}${name && html`<span class="visually-hidden"> for ${name}</span>`}<//>`;
}

export function Tabs({ tabs, current, onSelect, label }) {
  return html`<div class="tabs" role="tablist" aria-label=${label}>
    ${tabs.map(
      (
        tab,
      ) => html`<button type="button" role="tab" class="tabs__tab" aria-selected=${tab.id === current ? 'true' : 'false'}
        onClick=${() => onSelect(tab.id)}>${tab.label}</button>`,
    )}
  </div>`;
}

export function Card({ title, children, actions }) {
  return html`<section class="card">
    ${(title || actions) && html`<div class="card__head">${title && html`<h2>${title}</h2>`}${actions}</div>`}
    ${children}
  </section>`;
}

/** Label/value pairs. `items`: `[[label, value]]`. */
export function Details({ items }) {
  return html`<dl class="details">${items.map(([label, value]) => html`<div><dt>${label}</dt><dd>${value ?? '—'}</dd></div>`)}</dl>`;
}
