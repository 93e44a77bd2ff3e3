// Team analytics (docs/analytics.md): every scenario with its analysed meetings, participants,
// average score (percent of the goals' ranges), last meeting and assignment completion.
import { api, itemsOf } from '../../api.js';
import { Async, Badge, Card, PageHeader, Table } from '../../components/ui.js';
import { formatDate } from '../../format.js';
import { useApi } from '../../hooks.js';
import { html } from '../../lib.js';
import { href } from '../../router.js';

/** A percent of the goals' ranges, as it reads: "67%", or a dash. */
export const formatPercent = (value) =>
  value === null || value === undefined ? '—' : `${Math.round(Number(value))}%`;

/** Assignment completion: "3 of 4 done" and the open counts that need a look. */
export function Completion({ counts }) {
  if (!counts || counts.total === 0) return html`<span class="muted">None assigned</span>`;
  return html`<span class="row-actions">
    <${Badge} tone=${counts.done === counts.total ? 'success' : 'neutral'}>${counts.done} of ${counts.total} done<//>
    ${counts.in_progress > 0 && html`<${Badge} tone="info">${counts.in_progress} in progress<//>`}
    ${counts.not_started > 0 && html`<${Badge}>${counts.not_started} not started<//>`}
    ${counts.overdue > 0 && html`<${Badge} tone="danger">${counts.overdue} overdue<//>`}
  </span>`;
}

export default function Analytics() {
  const scenarios = useApi(() => api.get('analytics/scenarios').then(itemsOf));
  return html`<div class="page">
    <${PageHeader} title="Analytics"
      description="How your team does on each scenario: scores per goal over time, each participant's progress and assigned practice. Averages are percents of each goal's range." />
    <${Card} title="Scenarios">
      <${Async} state=${scenarios} rows=${3}
        empty=${{ when: (items) => items.length === 0, title: 'No scenarios yet', text: 'Create a scenario and practise it to see results here.' }}>
        ${(items) =>
          html`<${Table} caption="Scenarios with their results" rows=${items} rowKey=${(row) => row.scenario.id} columns=${[
            {
              label: 'Scenario',
              render: (row) =>
                html`<a href=${href(`/analytics/${row.scenario.id}`)}>${row.scenario.name}</a>`,
            },
            { label: 'Meetings', render: (row) => row.meetings },
            { label: 'Participants', render: (row) => row.participants },
            { label: 'Average', render: (row) => formatPercent(row.average_percent) },
            { label: 'Last meeting', render: (row) => formatDate(row.last_meeting_at) },
            { label: 'Assignments', render: (row) => html`<${Completion} counts=${row.assignments} />` },
          ]} />`}
      <//>
    <//>
  </div>`;
}
