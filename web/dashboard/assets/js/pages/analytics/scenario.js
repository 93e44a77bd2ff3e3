// One scenario's cohort (GET /v1/analytics/scenarios/{id}): a chart per goal of the team's average
// score per week or month on the goal's own scale, each participant's progress, the completion of
// assigned practice, and every result as CSV (a plain link: the session cookie authenticates it).
import { api } from '../../api.js';
import { Chart } from '../../components/chart.js';
import { Async, Badge, Card, Details, LinkButton, PageHeader, Select, Table } from '../../components/ui.js';
import { formatDate, formatUtcDate } from '../../format.js';
import { useApi } from '../../hooks.js';
import { html, useMemo, useState } from '../../lib.js';
import { href } from '../../router.js';
import { Completion, formatPercent } from './list.js';

const unixSeconds = (value) => Math.floor(new Date(value).getTime() / 1000);
const TONES = { done: 'success', in_progress: 'info', not_started: 'neutral', overdue: 'danger' };
/** A score as the goal's scale shows it: whole on 1–10, one decimal for an average. */
const formatAverage = (value) =>
  value === null || value === undefined ? '—' : String(Math.round(Number(value) * 10) / 10);
/** Lowest and highest are points only: the line is the average. */
const noLine = () => null;

function GoalChart({ goal, interval }) {
  const model = useMemo(
    () => ({
      data: [
        goal.series.map((point) => unixSeconds(point.period_start)),
        goal.series.map((point) => point.average),
        goal.series.map((point) => point.min),
        goal.series.map((point) => point.max),
      ],
      series: [
        { label: 'Average' },
        { label: 'Lowest', paths: noLine, points: { show: true, size: 5 } },
        { label: 'Highest', paths: noLine, points: { show: true, size: 5 } },
      ],
      yRange: [Math.min(0, goal.score_min), goal.score_max],
      rows: goal.series.map((point) => [
        `${interval === 'month' ? 'Month of' : 'Week of'} ${formatUtcDate(point.period_start)}`,
        point.meetings,
        formatAverage(point.average),
        point.min,
        point.max,
      ]),
    }),
    [goal, interval],
  );
  return html`<section class="analytics__goal">
    <h3>${goal.name}</h3>
    <p class="muted small">Average ${formatAverage(goal.average)} of ${goal.score_max} over ${goal.meetings} ${goal.meetings === 1 ? 'meeting' : 'meetings'}</p>
    <${Chart} label=${`${goal.name}: the team's average score per ${interval}, on its ${goal.score_min}–${goal.score_max} scale`}
      data=${model.data} series=${model.series} xTime yLabel=${`Score (${goal.score_min}–${goal.score_max})`} yRange=${model.yRange}
      table=${{ columns: [interval === 'month' ? 'Month' : 'Week', 'Meetings', 'Average', 'Lowest', 'Highest'], rows: model.rows }} />
  </section>`;
}

const change = (value) => {
  if (value === null || value === undefined) return html`<span class="muted">—</span>`;
  const rounded = Math.round(value);
  const tone = rounded > 0 ? 'success' : rounded < 0 ? 'danger' : 'neutral';
  return html`<${Badge} tone=${tone}>${rounded > 0 ? '+' : rounded < 0 ? '−' : '±'}${Math.abs(rounded)} pts<//>`;
};

function Participants({ participants }) {
  if (participants.length === 0)
    return html`<p class="muted">Nobody yet: people appear here after an analysed meeting, or when assigned this scenario.</p>`;
  return html`<${Table} caption="Participants and their progress" rows=${participants} rowKey=${(row) => row.person.id} columns=${[
    {
      label: 'Person',
      render: (row) => html`<a href=${href(`/people/${row.person.id}`)}>${row.person.name}</a>`,
    },
    { label: 'Meetings', render: (row) => row.meetings },
    { label: 'First', render: (row) => formatPercent(row.first_average_percent) },
    { label: 'Latest', render: (row) => formatPercent(row.latest_average_percent) },
    { label: 'Change', render: (row) => change(row.change_points) },
    { label: 'Last meeting', render: (row) => formatDate(row.last_meeting_at) },
    {
      label: 'Assignment',
      render: (row) =>
        row.assignment_status
          ? html`<${Badge} tone=${TONES[row.assignment_status]}>${row.assignment_status.replace('_', ' ')}<//>`
          : html`<span class="muted">—</span>`,
    },
  ]} />`;
}

export default function ScenarioAnalytics({ params }) {
  const [interval, setGrouping] = useState('week');
  const report = useApi(
    () => api.get(`analytics/scenarios/${params.id}`, { interval }).then((body) => body.data),
    [params.id, interval],
  );
  const csv = `/v1/analytics/scenarios/${encodeURIComponent(params.id)}/results.csv`;
  return html`<div class="page">
    <${Async} state=${report} rows=${5}>
      ${(data) => html`
        <${PageHeader} title=${data.scenario.name} back=${{ href: href('/analytics'), label: 'Analytics' }}
          description="The team's scores on each goal over time, each participant's progress and assigned practice. Only meetings whose analysis completed count."
          actions=${html`<${LinkButton} href=${csv} download>Download CSV<//>`} />
        <${Card} title="Summary">
          <${Details} items=${[
            ['Meetings analysed', data.summary.meetings],
            ['Participants', data.summary.participants],
            ['Average', formatPercent(data.summary.average_percent)],
            ['Last meeting', formatDate(data.summary.last_meeting_at)],
            ['Assignments', html`<${Completion} counts=${data.assignments} />`],
          ]} />
        <//>
        <${Card} title="Goals over time">
          <div class="analytics__picker">
            <${Select} label="Group meetings by" value=${interval} onChange=${setGrouping}
              options=${[{ value: 'week', label: 'Week' }, { value: 'month', label: 'Month' }]} />
          </div>
          ${
            data.goals.length === 0
              ? html`<p class="muted">No analysed meetings yet.</p>`
              : html`<div class="analytics__goals">${data.goals.map((goal) => html`<${GoalChart} key=${goal.goal_id ?? goal.name} goal=${goal} interval=${data.interval} />`)}</div>`
          }
        <//>
        <${Card} title="Participants"><${Participants} participants=${data.participants} /><//>`}
    <//>
  </div>`;
}
