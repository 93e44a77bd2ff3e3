// "Start a practice meeting": pick a scenario, name the participant (the signed-in user by default),
// POST /v1/meetings, and open the meeting page it returns in a new tab. The address is also shown,
// to copy or to open again when the browser blocked the new tab.
import { api, fetchAll } from '../../api.js';
import { Button, Dialog, ErrorNotice, Notice, Select, TextInput } from '../../components/ui.js';
import { fieldError, useAction, useApi } from '../../hooks.js';
import { html, useState } from '../../lib.js';
import { href } from '../../router.js';
import { useSession } from '../../session.js';

/** The meeting page as returned; older servers return it without the room token, which it needs. */
export function participantUrl(meeting) {
  const url = new URL(meeting.meeting_url, location.origin);
  if (!url.searchParams.has('t') && meeting.room_token) url.searchParams.set('t', meeting.room_token);
  return url.toString();
}

export function StartMeetingButton({ onStarted, variant = 'primary', label = 'Start a practice meeting' }) {
  const { session } = useSession();
  const [open, setOpen] = useState(false);
  const [scenarioId, setScenarioId] = useState('');
  const [personName, setPersonName] = useState(session?.user?.name ?? '');
  // Your own practice (a regular meeting, on your person) or someone else's (docs/people.md).
  const [forSomeoneElse, setForSomeoneElse] = useState(false);
  const [personEmail, setPersonEmail] = useState('');
  const [started, setStarted] = useState(null);
  const scenarios = useApi(() => (open ? fetchAll('scenarios', {}, 200) : Promise.resolve(null)), [open]);
  const chosen = scenarioId || scenarios.data?.[0]?.id || '';

  const [start, { busy, error }] = useAction(async () => {
    const body = await api.post('meetings', {
      scenario_id: chosen,
      person_name: personName.trim() || undefined,
      ...(forSomeoneElse
        ? { meeting_type: 'end-user', ...(personEmail.trim() ? { person_email: personEmail.trim() } : {}) }
        : {}),
    });
    const meeting = body?.data ?? body;
    const url = participantUrl(meeting);
    setStarted({ id: meeting.id, url });
    window.open(url, '_blank', 'noopener');
    onStarted?.(meeting);
  });

  const close = () => {
    setOpen(false);
    setStarted(null);
  };
  const footer = started
    ? html`<${Button} onClick=${close}>Close<//>`
    : html`<${Button} onClick=${close}>Cancel<//>
        <${Button} variant="primary" type="submit" form="start-meeting-form" busy=${busy} disabled=${!chosen}>Start meeting<//>`;

  return html`<${Button} variant=${variant} onClick=${() => setOpen(true)}>${label}<//>
    <${Dialog} open=${open} title="Start a practice meeting" onClose=${close} footer=${footer}>
      ${
        started
          ? html`<${Notice} kind="success">
              <p>The meeting is ready and opened in a new tab. If it did not open, use the link below.</p>
            <//>
            <p><a href=${started.url} target="_blank" rel="noopener" data-meeting-url>Open the meeting room ↗</a></p>
            <p class="mono small meeting-url">${started.url}</p>
            <p><a href=${href(`/meetings/${started.id}`)} onClick=${close}>See this meeting in the dashboard</a></p>`
          : html`<form id="start-meeting-form" class="form" onSubmit=${(event) => {
              event.preventDefault();
              start();
            }}>
              ${
                scenarios.loading
                  ? html`<p class="muted">Loading scenarios…</p>`
                  : scenarios.error
                    ? html`<${ErrorNotice} error=${scenarios.error} title="The scenarios could not be loaded" />`
                    : scenarios.data?.length
                      ? html`<${Select} label="Scenario" value=${chosen} onChange=${setScenarioId} error=${fieldError(error, 'scenario_id')}
                          options=${scenarios.data.map((scenario) => ({ value: scenario.id, label: scenario.name }))} />`
                      : html`<p>No scenarios yet. <a href=${href('/scenarios')}>Create one first</a>.</p>`
              }
              <fieldset class="library-fieldset">
                <legend>Who practises</legend>
                <div class="check"><input type="radio" id="practice-me" name="practice-who" checked=${!forSomeoneElse}
                  onChange=${() => {
                    setForSomeoneElse(false);
                    setPersonName(session?.user?.name ?? '');
                  }} /><label for="practice-me">Me</label></div>
                <div class="check"><input type="radio" id="practice-other" name="practice-who" checked=${forSomeoneElse}
                  onChange=${() => {
                    setForSomeoneElse(true);
                    setPersonName('');
                  }} /><label for="practice-other">Someone else<span class="field__hint">The meeting goes on their page under People.</span></label></div>
              </fieldset>
              <${TextInput} label="Participant name" value=${personName} onInput=${setPersonName} maxLength=${200}
                hint="The persona addresses them by this name." error=${fieldError(error, 'person_name')} />
              ${
                forSomeoneElse &&
                html`<${TextInput} label="Participant e-mail" type="email" optional value=${personEmail} onInput=${setPersonEmail}
                  hint="Finds them again next time (else their name does)." error=${fieldError(error, 'person_email')} />`
              }
              <${ErrorNotice} error=${error && !['scenario_id', 'person_name', 'person_email'].includes(error.param) ? error : null} title="The meeting could not be started" />
            </form>`
      }
    <//>`;
}
