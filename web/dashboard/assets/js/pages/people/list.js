// The workspace's people (docs/people.md): everyone who practises, made by the team or on their
// first meeting, each with their meeting count and a page of their history.
import { api, itemsOf } from '../../api.js';
import {
  Async,
  Badge,
  Button,
  Card,
  ErrorNotice,
  PageHeader,
  Select,
  Table,
  TextInput,
} from '../../components/ui.js';
import { formatDate } from '../../format.js';
import { fieldError, useAction, useApi } from '../../hooks.js';
import { html, useState } from '../../lib.js';
import { href, navigate } from '../../router.js';

/** "Sales EMEA, Q1 cohort" → the group names (the API tidies them). */
export const parseGroups = (text) =>
  text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

/** A person's groups as badges. */
export const GroupBadges = ({ groups }) =>
  groups?.length
    ? html`<span class="row-actions">${groups.map((group) => html`<${Badge} key=${group}>${group}<//>`)}</span>`
    : '—';

function AddPerson({ onCancel }) {
  const [values, setValues] = useState({ name: '', email: '', external_id: '', groups: '' });
  const set = (key) => (value) => setValues({ ...values, [key]: value });
  const [add, { busy, error }] = useAction(async (event) => {
    event.preventDefault();
    const body = await api.post('people', {
      name: values.name.trim(),
      ...(values.email.trim() ? { email: values.email.trim() } : {}),
      ...(values.external_id.trim() ? { external_id: values.external_id.trim() } : {}),
      ...(parseGroups(values.groups).length ? { groups: parseGroups(values.groups) } : {}),
    });
    navigate(`/people/${body.data.id}`);
  });
  return html`<${Card} title="Add a person">
    <form class="form" onSubmit=${add} noValidate>
      <div class="form-grid">
        <${TextInput} label="Name" required value=${values.name} onInput=${set('name')} error=${fieldError(error, 'name')} />
        <${TextInput} label="E-mail" type="email" optional value=${values.email} onInput=${set('email')} error=${fieldError(error, 'email')} />
        <${TextInput} label="External id" optional value=${values.external_id} onInput=${set('external_id')}
          hint="Your own id for them (LMS, HR system): meetings created with it join this person." error=${fieldError(error, 'external_id')} />
        <${TextInput} label="Groups" optional value=${values.groups} onInput=${set('groups')} placeholder="Sales EMEA, Q1 cohort"
          hint="Separated by commas: assign practice to a whole group at once." error=${error?.param?.startsWith('groups') ? error.message : null} />
      </div>
      <${ErrorNotice} error=${error && !['name', 'email', 'external_id'].includes(error.param) && !error.param?.startsWith('groups') ? error : null} title="Not added" />
      <div class="form-actions">
        <${Button} type="submit" variant="primary" busy=${busy} disabled=${!values.name.trim()}>Add person<//>
        <${Button} onClick=${onCancel}>Cancel<//>
      </div>
    </form>
  <//>`;
}

export default function People() {
  const [adding, setAdding] = useState(false);
  const [query, setQuery] = useState('');
  const [group, setGroup] = useState('');
  const groups = useApi(() => api.get('people/groups').then((body) => body.data));
  const people = useApi(
    () =>
      api
        .get('people', { ...(query.trim() ? { q: query.trim() } : {}), ...(group ? { group } : {}) })
        .then(itemsOf),
    [query, group],
  );
  return html`<div class="page">
    <${PageHeader} title="People"
      description="Everyone who practises. A person is added by the team or on their first meeting (found again by e-mail, external id or name), and their page shows their progress."
      actions=${!adding && html`<${Button} variant="primary" onClick=${() => setAdding(true)}>Add person<//>`} />
    ${adding && html`<${AddPerson} onCancel=${() => setAdding(false)} />`}
    <${Card} title="People">
      <div class="results__picker">
        <${TextInput} label="Search" value=${query} onInput=${setQuery} placeholder="Name or e-mail" />
        ${
          groups.data?.length > 0 &&
          html`<${Select} label="Group" value=${group} onChange=${setGroup}
            options=${[{ value: '', label: 'Everyone' }, ...groups.data.map((row) => ({ value: row.name, label: `${row.name} (${row.people})` }))]} />`
        }
      </div>
      <${Async} state=${people} rows=${3}
        empty=${{ when: (items) => items.length === 0, title: query || group ? 'Nobody matches' : 'Nobody yet', text: 'People appear here after their first meeting, or when you add them.' }}>
        ${(items) =>
          html`<${Table} caption="People" rows=${items} columns=${[
            {
              label: 'Name',
              render: (person) => html`<a href=${href(`/people/${person.id}`)}>${person.name}</a>`,
            },
            { label: 'E-mail', render: (person) => html`<span class="break">${person.email ?? '—'}</span>` },
            { label: 'External id', render: (person) => person.external_id ?? '—' },
            { label: 'Groups', render: (person) => html`<${GroupBadges} groups=${person.groups} />` },
            { label: 'Meetings', render: (person) => person.meeting_count ?? 0 },
            { label: 'Added', render: (person) => formatDate(person.created_at) },
          ]} />`}
      <//>
    <//>
  </div>`;
}
