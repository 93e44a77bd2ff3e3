// A personal practice link (`/#/practice/<token>`, docs/assignments.md): what to practise, for whom,
// by when and the attempts left; "Start practice" opens the meeting room. No sign-in.
import { api } from '../api.js';
import { Async, Button, ErrorNotice, Notice } from '../components/ui.js';
import { formatDateTime } from '../format.js';
import { useAction, useApi } from '../hooks.js';
import { html } from '../lib.js';

export default function Practice({ params }) {
  const offer = useApi(
    () => api.get(`/v1/practice/${encodeURIComponent(params.token)}`, undefined, { quietAuth: true }),
    [params.token],
  );
  const [start, { busy, error }] = useAction(async () => {
    const started = await api.post(`/v1/practice/${encodeURIComponent(params.token)}/meetings`, undefined, {
      quietAuth: true,
    });
    location.assign(started.room_url);
  });
  return html`<div class="stack">
    <h1 tabindex="-1" data-page-title>Practice</h1>
    <${Async} state=${offer} rows=${2}>
      ${(data) => html`
        <p>${html`<strong>${data.person.name}</strong>`}, your practice: ${html`<strong>${data.scenario.name}</strong>`}.</p>
        ${data.note && html`<p class="muted">${data.note}</p>`}
        <p class="small">${data.due_at ? `Due ${formatDateTime(data.due_at)}. ` : ''}${data.attempts_left} of ${data.attempts + data.attempts_left} attempts left.</p>
        ${data.status === 'done' && html`<${Notice} kind="success">Done: you may practise again while attempts are left.<//>`}
        <${ErrorNotice} error=${error} title="The practice did not start" />
        ${
          data.attempts_left > 0
            ? html`<${Button} variant="primary" busy=${busy} onClick=${() => start()}>Start practice<//>`
            : html`<${Notice} kind="error">No attempt is left: ask your coach for more.<//>`
        }`}
    <//>
  </div>`;
}
