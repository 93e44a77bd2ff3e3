// Goals: what the evaluator scores after a meeting. List, create (one, or many at once with
// POST /goals/bulk), edit every field (instructions, metrics JSON, active, linked scenarios), delete.
import { api, itemsOf } from '../../api.js';
import { JsonField, parseJson, prettyJson } from '../../components/json-field.js';
import {
  Async,
  Button,
  Card,
  Checkbox,
  ConfirmButton,
  PageHeader,
  Select,
  StatusBadge,
  Table,
  TextArea,
  TextInput,
} from '../../components/ui.js';
import { fieldError, useAction, useApi } from '../../hooks.js';
import { html, useState } from '../../lib.js';
import { clip, FormDialog, FormError, orNull, useValues } from './common.js';

const FIELDS = ['name', 'description', 'instructions', 'metrics', 'scenario_id', 'active', 'scenarios'];

async function loadGoals() {
  const [goals, scenarios] = await Promise.all([
    api.get('goals').then(itemsOf),
    api.get('scenarios').then(itemsOf),
  ]);
  return { goals, scenarios };
}

function GoalForm({ goal, scenarios, onClose, onSaved }) {
  const [values, set] = useValues({
    name: goal?.name ?? '',
    description: goal?.description ?? '',
    instructions: goal?.instructions ?? '',
    metrics: prettyJson(goal?.metrics),
    scenario_id: goal?.scenario_id ?? '',
    active: goal?.active ?? true,
    scenarios: goal?.scenarios ?? [],
  });
  const toggleScenario = (id) => (on) =>
    set('scenarios')(on ? [...values.scenarios, id] : values.scenarios.filter((item) => item !== id));
  const [save, { busy, error }] = useAction(async () => {
    const metrics = parseJson(values.metrics, { object: true, optional: true });
    if (metrics.error) return;
    const body = {
      name: values.name,
      description: orNull(values.description),
      instructions: orNull(values.instructions),
      metrics: metrics.value,
      scenario_id: values.scenario_id || null,
      active: values.active,
      scenarios: values.scenarios,
    };
    onSaved(goal ? await api.put(`goals/${goal.id}`, body) : await api.post('goals', body));
  });
  return html`<${FormDialog} open title=${goal ? `Edit ${goal.name}` : 'New goal'} onClose=${onClose} onSubmit=${save}
      busy=${busy} submitLabel=${goal ? 'Save goal' : 'Create goal'}>
    <${TextInput} label="Name" value=${values.name} onInput=${set('name')} required maxlength="100" error=${fieldError(error, 'name')} />
    <${TextArea} label="Description" optional rows=${2} value=${values.description} onInput=${set('description')}
      hint="What the goal measures, for you and your team." error=${fieldError(error, 'description')} />
    <${TextArea} label="Scoring instructions" optional rows=${4} value=${values.instructions} onInput=${set('instructions')}
      hint="Read by the evaluator; include the score range, e.g. “Score 1-10 …”." error=${fieldError(error, 'instructions')} />
    <${JsonField} label="Metrics (JSON)" optional object rows=${4} value=${values.metrics} onInput=${set('metrics')}
      hint='Custom evaluation metrics passed to the evaluator as given, e.g. { "weight": 2 }.' error=${fieldError(error, 'metrics')} />
    <${Select} label="Linked scenario" value=${values.scenario_id} onChange=${set('scenario_id')} error=${fieldError(error, 'scenario_id')}
      options=${[{ value: '', label: 'None' }, ...scenarios.map((item) => ({ value: item.id, label: item.name }))]} />
    ${
      scenarios.length > 0 &&
      html`<fieldset class="library-fieldset">
        <legend>Scores these scenarios</legend>
        ${scenarios.map((item) => html`<${Checkbox} label=${item.name} checked=${values.scenarios.includes(item.id)} onChange=${toggleScenario(item.id)} />`)}
      </fieldset>`
    }
    <${Checkbox} label="Active" hint="Inactive goals are not scored." checked=${values.active} onChange=${set('active')} />
    <${FormError} error=${error} fields=${FIELDS} title="The goal was not saved" />
  <//>`;
}

/** One goal per line: "Name" or "Name | scoring instructions". */
export function parseBulkGoals(text) {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [name, ...rest] = line.split('|');
      const instructions = rest.join('|').trim();
      return instructions ? { name: name.trim(), instructions } : { name: name.trim() };
    });
}

function BulkForm({ onClose, onSaved }) {
  const [text, setText] = useState('');
  const [save, { busy, error }] = useAction(async () => {
    const answer = await api.post('goals/bulk', { goals: parseBulkGoals(text) });
    onSaved(itemsOf(answer));
  });
  return html`<${FormDialog} open title="Add several goals" onClose=${onClose} onSubmit=${save} busy=${busy} submitLabel="Create goals">
    <${TextArea} label="Goals, one per line" rows=${8} value=${text} onInput=${setText}
      hint="Name, optionally followed by | and the scoring instructions. Up to 100 lines." />
    <${FormError} error=${error} title="The goals were not created" />
  <//>`;
}

export default function Goals() {
  const state = useApi(loadGoals);
  const [editing, setEditing] = useState(null);
  const saved = (goal) => {
    state.setData((data) => {
      const exists = data.goals.some((item) => item.id === goal.id);
      return {
        ...data,
        goals: exists ? data.goals.map((item) => (item.id === goal.id ? goal : item)) : [goal, ...data.goals],
      };
    });
    setEditing(null);
  };
  const remove = async (goal) => {
    await api.del(`goals/${goal.id}`);
    state.setData((data) => ({ ...data, goals: data.goals.filter((item) => item.id !== goal.id) }));
  };
  const scenarioNames = (data, goal) =>
    goal.scenarios
      .map((id) => data.scenarios.find((item) => item.id === id)?.name)
      .filter(Boolean)
      .join(', ') || '—';

  return html`<div class="page">
    <${PageHeader} title="Goals" description="What the evaluator scores after each practice meeting."
      actions=${html`<${Button} onClick=${() => setEditing('bulk')} disabled=${!state.data}>Add several<//>
        <${Button} variant="primary" onClick=${() => setEditing('new')} disabled=${!state.data}>New goal<//>`} />
    <${Async} state=${state} rows=${4}
      empty=${{ when: (data) => data.goals.length === 0, title: 'No goals yet', text: 'Create a goal, then attach it to a scenario to score it.' }}>
      ${(data) => html`<${Card}>
        <${Table} caption="Goals" rows=${data.goals} columns=${[
          {
            label: 'Goal',
            render: (row) =>
              html`<strong>${row.name}</strong><div class="muted small">${clip(row.description, 90)}</div>`,
          },
          {
            label: 'Instructions',
            className: 'library-wide',
            render: (row) => html`<span class="muted">${clip(row.instructions)}</span>`,
          },
          { label: 'Scenarios', render: (row) => scenarioNames(data, row) },
          {
            label: 'Status',
            render: (row) => html`<${StatusBadge} status=${row.active ? 'active' : 'disabled'} />`,
          },
          {
            label: 'Actions',
            render: (row) => html`<div class="form-actions">
              <${Button} onClick=${() => setEditing(row)} aria-label=${`Edit ${row.name}`}>Edit<//>
              <${ConfirmButton} label="Delete" title=${`Delete ${row.name}?`} buttonVariant="ghost"
                message="This cannot be undone; new meetings no longer score it." onConfirm=${() => remove(row)} />
            </div>`,
          },
        ]} />
      <//>`}
    <//>
    ${
      state.data &&
      editing === 'bulk' &&
      html`<${BulkForm} onClose=${() => setEditing(null)} onSaved=${(goals) => {
        state.setData((data) => ({ ...data, goals: [...goals, ...data.goals] }));
        setEditing(null);
      }} />`
    }
    ${
      state.data &&
      editing &&
      editing !== 'bulk' &&
      html`<${GoalForm} key=${editing === 'new' ? 'new' : editing.id}
      goal=${editing === 'new' ? null : editing} scenarios=${state.data.scenarios} onClose=${() => setEditing(null)} onSaved=${saved} />`
    }
  </div>`;
}
