// Assigned practice (docs/assignments.md): the assignments with their counts, and the form that
// gives a scenario to people or whole groups with a due date and a number of attempts.
import { api, fetchAll, itemsOf } from '../../api.js';
import {
  Async,
  Badge,
  Button,
  Card,
  ErrorNotice,
  PageHeader,
  Select,
  Table,
  TextArea,
  TextInput,
} from '../../components/ui.js';
import { formatDateTime } from '../../format.js';
import { fieldError, useAction, useApi } from '../../hooks.js';
import { html, useState } from '../../lib.js';
import { href, navigate } from '../../router.js';

function AssignForm({ onCancel }) {
  const options = useApi(
    () =>
      Promise.all([
        fetchAll('scenarios', {}, 200),
        fetchAll('people', {}, 500),
        api.get('people/groups').then((body) => body.data),
      ]),
    [],
  );
  const [scenarioId, setScenarioId] = useState('');
  const [chosen, setChosen] = useState([]);
  const [chosenGroups, setChosenGroups] = useState([]);
  const [search, setSearch] = useState('');
  const [dueAt, setDueAt] = useState('');
  const [attempts, setAttempts] = useState('1');
  const [note, setNote] = useState('');
  const [assign, { busy, error }] = useAction(async (event) => {
    event.preventDefault();
    const scenarios = options.data?.[0] ?? [];
    const body = await api.post('assignments', {
      scenario_id: scenarioId || scenarios[0]?.id,
      person_ids: chosen,
      ...(chosenGroups.length ? { groups: chosenGroups } : {}),
      ...(dueAt ? { due_at: new Date(dueAt).toISOString() } : {}),
      max_attempts: Number(attempts),
      ...(note.trim() ? { note: note.trim() } : {}),
    });
    navigate(`/assignments/${body.data.id}`);
  });
  const toggle = (id, on) =>
    setChosen((previous) => (on ? [...previous, id] : previous.filter((item) => item !== id)));
  const toggleGroup = (name, on) =>
    setChosenGroups((previous) => (on ? [...previous, name] : previous.filter((item) => item !== name)));
  return html`<${Card} title="Assign practice">
    <${Async} state=${options} rows=${3}>
      ${([scenarios, people, groups]) => {
        const shown = people.filter((person) =>
          `${person.name} ${person.email ?? ''}`.toLowerCase().includes(search.trim().toLowerCase()),
        );
        // Who the assignment reaches: the people ticked and everyone in a ticked group, once each.
        const reached = people.filter(
          (person) =>
            chosen.includes(person.id) || (person.groups ?? []).some((group) => chosenGroups.includes(group)),
        ).length;
        return html`<form class="form" onSubmit=${assign} noValidate>
          <div class="form-grid">
            <${Select} label="Scenario" value=${scenarioId || scenarios[0]?.id || ''} onChange=${setScenarioId} error=${fieldError(error, 'scenario_id')}
              options=${scenarios.map((scenario) => ({ value: scenario.id, label: scenario.name }))} />
            <${TextInput} label="Due" type="datetime-local" optional value=${dueAt} onInput=${setDueAt} error=${fieldError(error, 'due_at')} />
            <${TextInput} label="Attempts each" type="number" min="1" max="20" value=${attempts} onInput=${setAttempts}
              error=${fieldError(error, 'max_attempts')} />
          </div>
          ${
            groups.length > 0 &&
            html`<fieldset class="library-fieldset">
              <legend>Groups</legend>
              <div class="assign__people">
                ${groups.map(
                  (group, index) => html`<div class="check" key=${group.name}>
                    <input type="checkbox" id=${`assign-group-${index}`} checked=${chosenGroups.includes(group.name)}
                      onChange=${(event) => toggleGroup(group.name, event.currentTarget.checked)} />
                    <label for=${`assign-group-${index}`}>${group.name}<span class="field__hint">${group.people} ${group.people === 1 ? 'person' : 'people'}</span></label>
                  </div>`,
                )}
              </div>
              ${error?.param?.startsWith('groups') && html`<p class="field__error" role="alert">${error.message}</p>`}
            </fieldset>`
          }
          <fieldset class="library-fieldset">
            <legend>People</legend>
            ${
              people.length === 0
                ? html`<p class="muted">Nobody yet: <a href=${href('/people')}>add people</a> first.</p>`
                : html`<${TextInput} label="Find" value=${search} onInput=${setSearch} placeholder="Name or e-mail" />
                  <div class="assign__people">
                    ${shown.map(
                      (person) => html`<div class="check" key=${person.id}>
                        <input type="checkbox" id=${`assign-${person.id}`} checked=${chosen.includes(person.id)}
                          onChange=${(event) => toggle(person.id, event.currentTarget.checked)} />
                        <label for=${`assign-${person.id}`}>${person.name}${person.email && html`<span class="field__hint">${person.email}</span>`}</label>
                      </div>`,
                    )}
                  </div>`
            }
            ${error?.param?.startsWith('person_ids') && html`<p class="field__error" role="alert">${error.message}</p>`}
          </fieldset>
          <${TextArea} label="Note" optional rows=${2} value=${note} onInput=${setNote} hint="Shown on their practice page." />
          <${ErrorNotice} error=${error && !error.param?.startsWith('person_ids') && !error.param?.startsWith('groups') && !['scenario_id', 'due_at', 'max_attempts'].includes(error.param) ? error : null} title="Not assigned" />
          <div class="form-actions">
            <${Button} type="submit" variant="primary" busy=${busy} disabled=${reached === 0}>Assign to ${reached} ${reached === 1 ? 'person' : 'people'}<//>
            <${Button} onClick=${onCancel}>Cancel<//>
          </div>
        </form>`;
      }}
    <//>
  <//>`;
}

const counts = (assignment) => {
  const { done, in_progress: inProgress, not_started: notStarted, overdue } = assignment.status_counts;
  return html`<span class="row-actions">
    <${Badge} tone="success">${done} done<//>
    ${inProgress > 0 && html`<${Badge} tone="info">${inProgress} in progress<//>`}
    ${notStarted > 0 && html`<${Badge}>${notStarted} not started<//>`}
    ${overdue > 0 && html`<${Badge} tone="danger">${overdue} overdue<//>`}
  </span>`;
};

export default function Assignments() {
  const [adding, setAdding] = useState(false);
  const assignments = useApi(() => api.get('assignments').then(itemsOf));
  return html`<div class="page">
    <${PageHeader} title="Assignments"
      description="Practice you give people: a scenario, a due date and a number of attempts. Each person gets a personal link that needs no sign-in."
      actions=${!adding && html`<${Button} variant="primary" onClick=${() => setAdding(true)}>Assign practice<//>`} />
    ${adding && html`<${AssignForm} onCancel=${() => setAdding(false)} />`}
    <${Card} title="Assignments">
      <${Async} state=${assignments} rows=${3}
        empty=${{ when: (items) => items.length === 0, title: 'Nothing assigned yet', text: 'Assign a scenario to people to see their progress here.' }}>
        ${(items) =>
          html`<${Table} caption="Assignments" rows=${items} columns=${[
            {
              label: 'Scenario',
              render: (row) =>
                html`<a href=${href(`/assignments/${row.id}`)}>${row.scenario.name ?? 'A deleted scenario'}</a>`,
            },
            { label: 'People', render: (row) => row.people.length },
            { label: 'Progress', render: counts },
            { label: 'Due', render: (row) => formatDateTime(row.due_at) },
            { label: 'Assigned', render: (row) => formatDateTime(row.created_at) },
          ]} />`}
      <//>
    <//>
  </div>`;
}

export { counts };
