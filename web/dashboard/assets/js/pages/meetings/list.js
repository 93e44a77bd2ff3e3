// The workspace's meetings (GET /v1/meetings): filters by scenario, status, participant and date,
// a search, newest first with "Load more". The filters live in the address, so a filtered list can
// be bookmarked and the back button restores it.
import { fetchAll, fetchPage } from '../../api.js';
import {
  Async,
  Button,
  LoadMore,
  PageHeader,
  Select,
  StatusBadge,
  Table,
  TextInput,
} from '../../components/ui.js';
import { formatDateTime, formatDuration, formatScore } from '../../format.js';
import { useApi } from '../../hooks.js';
import { html, useEffect, useState } from '../../lib.js';
import { href, navigate } from '../../router.js';
import { StartMeetingButton } from './start-meeting.js';

const FILTERS = ['q', 'scenario_id', 'status', 'person_name', 'from', 'to'];
const STATUSES = [
  { value: '', label: 'Any status' },
  { value: 'created', label: 'Created (not joined yet)' },
  { value: 'active', label: 'Active' },
  { value: 'ended', label: 'Ended' },
];

/** The API's query for the filters: dates are whole days in the reader's time zone. */
function apiQuery(filters) {
  const dayStart = (value) => (value ? new Date(`${value}T00:00:00`).toISOString() : undefined);
  const nextDay = (value) => {
    if (!value) return undefined;
    const date = new Date(`${value}T00:00:00`);
    date.setDate(date.getDate() + 1);
    return date.toISOString();
  };
  return {
    q: filters.q,
    scenario_id: filters.scenario_id,
    status: filters.status,
    person_name: filters.person_name,
    created_after: dayStart(filters.from),
    created_before: nextDay(filters.to),
  };
}

function pick(query) {
  return Object.fromEntries(FILTERS.map((key) => [key, query[key] ?? '']));
}

/** Text filters wait until typing pauses before they change the address (and load). */
function useDebounced(value, delay = 350) {
  const [settledValue, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settledValue;
}

const COLUMNS = [
  {
    label: 'Participant',
    render: (meeting) =>
      html`<a href=${href(`/meetings/${meeting.id}`)}>${meeting.person_name || 'Unnamed participant'}</a>`,
  },
  { label: 'Scenario', render: (meeting) => meeting.scenario_name },
  { label: 'Status', render: (meeting) => html`<${StatusBadge} status=${meeting.status} />` },
  {
    label: 'Analysis',
    render: (meeting) => html`<${StatusBadge} status=${meeting.analysis_status} />`,
  },
  { label: 'Score', className: 'num', render: (meeting) => formatScore(meeting.average_score) },
  { label: 'Duration', className: 'num', render: (meeting) => formatDuration(meeting.duration_seconds) },
  { label: 'Created', render: (meeting) => formatDateTime(meeting.created_at) },
];

export default function Meetings({ query }) {
  const applied = pick(query);
  const [text, setText] = useState({ q: applied.q, person_name: applied.person_name });
  const typed = useDebounced(text);
  const scenarios = useApi(() => fetchAll('scenarios', {}, 200), []);

  const setFilters = (changes) => {
    const next = { ...applied, ...changes };
    const search = new URLSearchParams(Object.entries(next).filter(([, value]) => value)).toString();
    navigate(`/meetings${search ? `?${search}` : ''}`, { replace: true });
  };
  useEffect(() => {
    if (typed.q !== applied.q || typed.person_name !== applied.person_name) setFilters(typed);
  }, [typed.q, typed.person_name]);

  const key = JSON.stringify(applied);
  const list = useApi(() => fetchPage('meetings', apiQuery(applied)), [key]);
  const [more, setMore] = useState({ busy: false, error: null });
  const loadMore = async () => {
    setMore({ busy: true, error: null });
    try {
      const page = await fetchPage('meetings', { ...apiQuery(applied), cursor: list.data.nextCursor });
      list.setData((current) => ({ items: [...current.items, ...page.items], nextCursor: page.nextCursor }));
      setMore({ busy: false, error: null });
    } catch (error) {
      setMore({ busy: false, error });
    }
  };
  const filtered = FILTERS.some((name) => applied[name]);
  const scenarioOptions = [
    { value: '', label: 'All scenarios' },
    ...(scenarios.data ?? []).map((scenario) => ({ value: scenario.id, label: scenario.name })),
  ];

  return html`<div class="page">
    <${PageHeader} title="Meetings" description="Every practice meeting of the workspace, newest first."
      actions=${html`<${StartMeetingButton} onStarted=${list.reload} />`} />
    <form class="filters" role="search" aria-label="Filter meetings" onSubmit=${(event) => event.preventDefault()}>
      <${TextInput} label="Search" type="search" value=${text.q} placeholder="Participant or scenario"
        onInput=${(value) => setText((current) => ({ ...current, q: value }))} />
      <${Select} label="Scenario" value=${applied.scenario_id} options=${scenarioOptions}
        onChange=${(value) => setFilters({ scenario_id: value })} />
      <${Select} label="Status" value=${applied.status} options=${STATUSES} onChange=${(value) => setFilters({ status: value })} />
      <${TextInput} label="Participant" value=${text.person_name} placeholder="Name starts with"
        onInput=${(value) => setText((current) => ({ ...current, person_name: value }))} />
      <${TextInput} label="From" type="date" value=${applied.from} max=${applied.to || undefined}
        onInput=${(value) => setFilters({ from: value })} />
      <${TextInput} label="To" type="date" value=${applied.to} min=${applied.from || undefined}
        onInput=${(value) => setFilters({ to: value })} />
      ${
        filtered &&
        html`<div class="filters__reset"><${Button} variant="ghost" onClick=${() => {
          setText({ q: '', person_name: '' });
          navigate('/meetings', { replace: true });
        }}>Clear filters<//></div>`
      }
    </form>
    <${Async} state=${list} rows=${6}
      empty=${{
        when: (data) => data.items.length === 0,
        title: filtered ? 'No meetings match these filters' : 'No meetings yet',
        text: filtered ? 'Change or clear the filters.' : 'Start a practice meeting to talk with a persona.',
      }}>
      ${(data) => html`<${Table} caption="Meetings" columns=${COLUMNS} rows=${data.items} />
        ${more.error && html`<p class="field__error" role="alert">${more.error.message}</p>`}
        <${LoadMore} hasMore=${Boolean(data.nextCursor)} busy=${more.busy} onClick=${loadMore} />`}
    <//>
  </div>`;
}
