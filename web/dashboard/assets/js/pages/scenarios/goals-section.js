// The goals a scenario is scored on, in order: attach an existing goal or write a new one, move,
// detach. The list is saved as the scenario's `goals` (PUT /v1/scenarios/{id} replaces it).
import { api, fetchAll } from '../../api.js';
import {
  Async,
  Button,
  Card,
  EmptyState,
  ErrorNotice,
  Select,
  TextArea,
  TextInput,
} from '../../components/ui.js';
import { fieldError, useAction, useApi } from '../../hooks.js';
import { html, useState } from '../../lib.js';
import { moved } from './reorder.js';

function NewGoalForm({ onCreated }) {
  const [name, setName] = useState('');
  const [instructions, setInstructions] = useState('');
  const [create, { busy, error }] = useAction(async () => {
    const goal = await api.post('goals', { name, instructions: instructions.trim() ? instructions : null });
    setName('');
    setInstructions('');
    await onCreated(goal);
  });
  const submit = (event) => {
    event.preventDefault();
    create();
  };
  return html`<form class="form" noValidate onSubmit=${submit} aria-label="New goal">
    <${TextInput} label="New goal name" value=${name} onInput=${setName} error=${fieldError(error, 'name')} maxLength="100" />
    <${TextArea} label="Scoring instructions" optional rows=${3} value=${instructions} onInput=${setInstructions}
      error=${fieldError(error, 'instructions')} hint='Include the range, e.g. "Score 1-10. 9-10: asked open questions…".' />
    <${ErrorNotice} error=${error && !['name', 'instructions'].includes(error.param) ? error : null} />
    <div class="form-actions"><${Button} type="submit" busy=${busy}>Create and attach<//></div>
  </form>`;
}

export function GoalsSection({ scenario, onChanged }) {
  const goals = useApi(() => fetchAll('goals'), []);
  const [choice, setChoice] = useState('');
  const attachedIds = scenario.goals ?? [];
  const [saveGoals, { busy, error }] = useAction(async (ids) => {
    onChanged(await api.put(`scenarios/${scenario.id}`, { goals: ids }));
  });
  const byId = new Map([...(goals.data ?? []), ...(scenario.Goals ?? [])].map((goal) => [goal.id, goal]));
  const attached = attachedIds.map((id) => byId.get(id) ?? { id, name: 'A goal' });

  return html`<div class="stack">
    <${Card} title="Attached goals">
      <p class="muted">Each meeting is scored on these, in this order.</p>
      <${ErrorNotice} error=${error} />
      ${
        attached.length === 0
          ? html`<${EmptyState} title="No goals yet">Attach one below so meetings get scored.<//>`
          : html`<ol class="ordered-list" aria-label="Attached goals">
          ${attached.map(
            (goal, index) => html`<li class="ordered-list__item" key=${goal.id}>
              <span class="ordered-list__name">${goal.name}</span>
              ${goal.active === false && html`<span class="muted small">(inactive: not scored)</span>`}
              <span class="ordered-list__actions">
                <${Button} variant="ghost" class="button button--ghost button--small" disabled=${busy || index === 0}
                  aria-label=${`Move ${goal.name} up`} onClick=${() => saveGoals(moved(attachedIds, index, -1))}>↑<//>
                <${Button} variant="ghost" class="button button--ghost button--small" disabled=${busy || index === attached.length - 1}
                  aria-label=${`Move ${goal.name} down`} onClick=${() => saveGoals(moved(attachedIds, index, 1))}>↓<//>
                <${Button} variant="ghost" class="button button--ghost button--small" disabled=${busy}
                  aria-label=${`Detach ${goal.name}`} onClick=${() => saveGoals(attachedIds.filter((id) => id !== goal.id))}>Detach<//>
              </span>
            </li>`,
          )}
        </ol>`
      }
    <//>
    <${Card} title="Attach a goal">
      <${Async} state=${goals} rows=${1}>
        ${(items) => {
          const free = items.filter((goal) => !attachedIds.includes(goal.id));
          return html`<div class="inline-form">
            <${Select} label="Goal" value=${choice} onChange=${setChoice}
              options=${[{ value: '', label: free.length ? 'Choose a goal' : 'Every goal is attached' }, ...free.map((goal) => ({ value: goal.id, label: goal.name }))]} />
            <${Button} disabled=${!choice} busy=${busy} onClick=${async () => {
              await saveGoals([...attachedIds, choice]);
              setChoice('');
            }}>Attach<//>
          </div>`;
        }}
      <//>
      <${NewGoalForm} onCreated=${async (goal) => {
        goals.reload();
        await saveGoals([...attachedIds, goal.id]);
      }} />
    <//>
  </div>`;
}
