// What the authoring-library views (personas, goals, guardrails, functions, memories) share: form
// state, the dialog that holds a create/edit form, and the error of a form shown once.
import { ApiError } from '../../api.js';
import { Button, Dialog, ErrorNotice } from '../../components/ui.js';
import { html, useState } from '../../lib.js';

/** Form values and a setter per field: `const [values, set] = useValues({ name: '' }); set('name')(v)`. */
export function useValues(initial) {
  const [values, setValues] = useState(initial);
  const set = (key) => (value) => setValues((previous) => ({ ...previous, [key]: value }));
  return [values, set, setValues];
}

/** The error for the form as a whole: unless the API named one of the form's own fields. */
export function FormError({ error, fields = [], title }) {
  if (!error) return null;
  if (error instanceof ApiError && error.param && fields.includes(error.param)) return null;
  return html`<${ErrorNotice} error=${error} title=${title} />`;
}

/**
 * A create/edit form in a dialog; the form's own buttons submit it, so Enter works in any input.
 * `onSubmit` is called with the submit event already prevented.
 */
export function FormDialog({ open, title, onClose, onSubmit, busy, submitLabel = 'Save', children }) {
  return html`<${Dialog} open=${open} title=${title} onClose=${onClose}>
    <form class="form" novalidate onSubmit=${(event) => {
      event.preventDefault();
      onSubmit();
    }}>
      ${children}
      <div class="dialog__footer">
        <${Button} onClick=${onClose}>Cancel<//>
        <${Button} type="submit" variant="primary" busy=${busy}>${submitLabel}<//>
      </div>
    </form>
  <//>`;
}

/** Null for an empty or blank text field (the API's "not set"). */
export const orNull = (text) => (text?.trim() ? text : null);

/** Shortens long text for a table cell; the full text stays in the title. */
export function clip(text, length = 120) {
  if (!text) return '—';
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/** The resource of an answer that wraps it in `{ data }` (guardrails, custom functions) or not. */
export const dataOf = (body) =>
  body && typeof body === 'object' && 'data' in body && !Array.isArray(body.data) ? body.data : body;
