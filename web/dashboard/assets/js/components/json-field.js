// A JSON editor: a labelled textarea that says, as you type, whether the text is valid JSON (and,
// with `object`, a JSON object), so a form can refuse to send what the API would reject.
import { html } from '../lib.js';
import { TextArea } from './ui.js';

/** `{ value, error }`: the parsed JSON, or a plain-words error. Empty text is `null` when `optional`. */
export function parseJson(text, { object = false, optional = false } = {}) {
  if (!text.trim()) {
    return optional ? { value: null, error: null } : { value: undefined, error: 'Enter some JSON.' };
  }
  try {
    const value = JSON.parse(text);
    if (object && (value === null || typeof value !== 'object' || Array.isArray(value))) {
      return { value: undefined, error: 'This must be a JSON object: { … }.' };
    }
    return { value, error: null };
  } catch (caught) {
    return { value: undefined, error: `This is not valid JSON: ${caught.message}` };
  }
}

export function JsonField({ label, hint, value, onInput, error, object, optional, rows = 8 }) {
  const parsed = parseJson(value ?? '', { object, optional });
  return html`<${TextArea} label=${label} hint=${hint} optional=${optional} rows=${rows} value=${value}
    class="input input--code" spellcheck="false" onInput=${onInput} error=${parsed.error ?? error} />`;
}

/** Pretty JSON for a textarea (empty for null). */
export const prettyJson = (value) =>
  value === null || value === undefined ? '' : JSON.stringify(value, null, 2);
