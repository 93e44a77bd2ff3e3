// A scenario's open practice link (`/#/try/<token>`, docs/assignments.md): anyone may practise.
// The visitor says who they are (an e-mail is optional) and "Start practice" opens a new meeting.
import { api } from '../api.js';
import { Async, Button, ErrorNotice, TextInput } from '../components/ui.js';
import { useAction, useApi } from '../hooks.js';
import { html, useState } from '../lib.js';

const fieldError = (error, param) => (error?.param === param ? error.message : null);

export default function TryScenario({ params }) {
  const base = `/v1/try/${encodeURIComponent(params.token)}`;
  const offer = useApi(() => api.get(base, undefined, { quietAuth: true }), [params.token]);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [start, { busy, error }] = useAction(async () => {
    const started = await api.post(
      `${base}/meetings`,
      { name, ...(email.trim() ? { email: email.trim() } : {}) },
      { quietAuth: true },
    );
    location.assign(started.room_url);
  });
  const submit = (event) => {
    event.preventDefault();
    start();
  };
  return html`<div class="stack">
    <h1 tabindex="-1" data-page-title>Practice</h1>
    <${Async} state=${offer} rows=${3}>
      ${(data) => html`
        <p>Practise <strong>${data.scenario.name}</strong>${data.persona ? html` with ${data.persona.name}${data.persona.job_title ? `, ${data.persona.job_title}` : ''}` : ''}.</p>
        ${data.scenario.description && html`<p class="muted">${data.scenario.description}</p>`}
        <form class="stack" onSubmit=${submit} novalidate>
          <${TextInput} label="Your name" value=${name} onInput=${setName} autocomplete="name" required maxlength="200"
            hint="The persona calls you by it." error=${fieldError(error, 'name')} />
          <${TextInput} label="E-mail" type="email" optional value=${email} onInput=${setEmail} autocomplete="email"
            hint="To keep your practice together over several visits." error=${fieldError(error, 'email')} />
          <${ErrorNotice} error=${error && !['name', 'email'].includes(error.param) ? error : null} title="The practice did not start" />
          <div><${Button} type="submit" variant="primary" busy=${busy}>Start practice<//></div>
        </form>`}
    <//>
  </div>`;
}
