// Results over many meetings. Per scenario (GET /v1/analyses/scenario/{id}): how the average scores
// are spread (a histogram) and how each goal's score moved over time (a line per goal). Per
// participant (their meetings from GET /v1/meetings): the average score meeting after meeting.
import { api, fetchAll } from '../../api.js';
import { barPaths, Chart } from '../../components/chart.js';
import { Async, Card, PageHeader, Select } from '../../components/ui.js';
import { formatDate, formatDateTime, formatScore } from '../../format.js';
import { useApi } from '../../hooks.js';
import { html, useMemo } from '../../lib.js';
import { href, navigate } from '../../router.js';

const unixSeconds = (value) => Math.floor(new Date(value).getTime() / 1000);
const byTime = (a, b) => new Date(a.created_at) - new Date(b.created_at);

/**
 * The top of the scale scores are on: the goals' own `score_max` when the results give it and
 * they agree, else a guess from the highest score (goals mostly score 1–10, some 0–100).
 */
export function scaleTop(scores, maxima = []) {
  const tops = new Set(maxima.filter((max) => Number.isFinite(max)));
  if (tops.size === 1) return [...tops][0];
  if (tops.size > 1) return Math.max(...tops);
  const high = Math.max(0, ...scores.filter((score) => Number.isFinite(score)));
  return high <= 10 ? 10 : 100;
}

const maximaOf = (analyses) =>
  analyses.flatMap((analysis) => analysis.GoalResults.map((result) => result.score_max));

/**
 * Buckets for the histogram: whole points for small scales (1–5, 1–10), tens beyond that.
 * Returns `{ starts, counts, width }`.
 */
export function histogram(scores) {
  if (scores.length === 0) return { starts: [], counts: [], width: 1 };
  const max = Math.max(...scores);
  const width = max <= 10 ? 1 : 10;
  const first = Math.floor(Math.min(...scores) / width) * width;
  const last = Math.floor(max / width) * width;
  const starts = [];
  for (let start = first; start <= last; start += width) starts.push(start);
  const counts = starts.map(() => 0);
  for (const score of scores) counts[Math.min(starts.length - 1, Math.floor((score - first) / width))] += 1;
  return { starts, counts, width };
}

async function loadScenarioResults(scenarioId) {
  const [analyses, scenario] = await Promise.all([
    fetchAll(`analyses/scenario/${scenarioId}`, {}, 500),
    api.get(`scenarios/${scenarioId}`).then((body) => body?.data ?? body),
  ]);
  return {
    analyses: [...analyses].sort((a, b) => byTime(a.Meeting, b.Meeting)),
    goals: scenario?.Goals ?? [],
  };
}

function ScoreDistribution({ analyses }) {
  const scores = analyses
    .map((analysis) => analysis.average_score)
    .filter((score) => score !== null && score !== undefined);
  const model = useMemo(() => {
    const buckets = histogram(scores);
    const label = (start) => (buckets.width === 1 ? `${start}` : `${start}–${start + buckets.width - 1}`);
    // The whole scale is shown (bars centred on their bucket), not only the buckets that hold scores.
    const half = buckets.width / 2;
    const lowest = Math.min(buckets.starts[0] ?? 1, buckets.width === 1 ? 1 : 0);
    return {
      xRange: [lowest - half, scaleTop(scores, maximaOf(analyses)) + half],
      data: [buckets.starts, buckets.counts],
      series: [{ label: 'Meetings', paths: barPaths(), points: { show: false } }],
      rows: buckets.starts.map((start, index) => [label(start), buckets.counts[index]]),
    };
  }, [analyses]);
  if (scores.length === 0) return html`<p class="muted">No scored meetings yet.</p>`;
  return html`<${Chart} label=${`Distribution of average scores over ${scores.length} meetings`} data=${model.data}
    series=${model.series} xLabel="Average score" yLabel="Meetings" xRange=${model.xRange} yRange="count" xWhole
    table=${{ columns: ['Average score', 'Meetings'], rows: model.rows }} />`;
}

function GoalTrends({ analyses, goals }) {
  const model = useMemo(() => {
    const names = new Map(goals.map((goal) => [goal.id, goal.name]));
    const goalIds = [
      ...new Set(analyses.flatMap((analysis) => analysis.GoalResults.map((result) => result.goal_id))),
    ].filter(Boolean);
    const scoreOf = (analysis, goalId) =>
      analysis.GoalResults.find((result) => result.goal_id === goalId)?.score ?? null;
    const data = [
      analyses.map((analysis) => unixSeconds(analysis.Meeting.created_at)),
      ...goalIds.map((goalId) => analyses.map((analysis) => scoreOf(analysis, goalId))),
    ];
    return {
      data,
      yRange: [0, scaleTop(data.slice(1).flat(), maximaOf(analyses))],
      series: goalIds.map((goalId) => ({ label: names.get(goalId) ?? 'A deleted goal' })),
      columns: ['Meeting', 'Participant', ...goalIds.map((goalId) => names.get(goalId) ?? 'A deleted goal')],
      rows: analyses.map((analysis) => [
        html`<a href=${href(`/meetings/${analysis.Meeting.id}`)}>${formatDateTime(analysis.Meeting.created_at)}</a>`,
        analysis.Meeting.person_name ?? '—',
        ...goalIds.map((goalId) => formatScore(scoreOf(analysis, goalId))),
      ]),
    };
  }, [analyses, goals]);
  if (model.series.length === 0) return html`<p class="muted">No goal scores yet.</p>`;
  return html`<${Chart} label="Each goal's score by meeting, over time" data=${model.data} series=${model.series} xTime
    yLabel="Score" yRange=${model.yRange} table=${{ columns: model.columns, rows: model.rows }} />`;
}

function ByScenario({ scenarios, scenarioId, onPick }) {
  const results = useApi(
    () => (scenarioId ? loadScenarioResults(scenarioId) : Promise.resolve(null)),
    [scenarioId],
  );
  return html`<${Card} title="By scenario">
    <div class="results__picker">
      <${Select} label="Scenario" value=${scenarioId} onChange=${onPick}
        options=${scenarios.map((scenario) => ({ value: scenario.id, label: scenario.name }))} />
    </div>
    <${Async} state=${results} rows=${4}
      empty=${{ when: (data) => !data || data.analyses.length === 0, title: 'No analysed meetings', text: 'Results appear once meetings of this scenario have been analysed.' }}>
      ${(data) => html`<div class="grid grid--2 results__charts">
        <div><h3>Score distribution</h3><${ScoreDistribution} analyses=${data.analyses} /></div>
        <div><h3>Goals over time</h3><${GoalTrends} analyses=${data.analyses} goals=${data.goals} /></div>
      </div>`}
    <//>
  <//>`;
}

function ByParticipant({ meetings, name, onPick }) {
  const names = [...new Set(meetings.map((meeting) => meeting.person_name).filter(Boolean))].sort((a, b) =>
    a.localeCompare(b),
  );
  const chosen = name && names.includes(name) ? name : (names[0] ?? '');
  const model = useMemo(() => {
    const scored = meetings
      .filter(
        (meeting) =>
          meeting.person_name === chosen &&
          meeting.average_score !== null &&
          meeting.average_score !== undefined,
      )
      .sort(byTime);
    return {
      scored,
      yRange: [0, scaleTop(scored.map((meeting) => meeting.average_score))],
      data: [
        scored.map((meeting) => unixSeconds(meeting.created_at)),
        scored.map((meeting) => meeting.average_score),
      ],
      series: [{ label: 'Average score' }],
      rows: scored.map((meeting) => [
        html`<a href=${href(`/meetings/${meeting.id}`)}>${formatDate(meeting.created_at)}</a>`,
        meeting.scenario_name,
        formatScore(meeting.average_score),
      ]),
    };
  }, [meetings, chosen]);
  return html`<${Card} title="By participant">
    ${
      names.length === 0
        ? html`<p class="muted">No participants yet.</p>`
        : html`<div class="results__picker">
            <${Select} label="Participant" value=${chosen} onChange=${onPick} options=${names.map((value) => ({ value, label: value }))} />
          </div>
          ${
            model.scored.length === 0
              ? html`<p class="muted">${chosen} has no analysed meetings yet.</p>`
              : html`<h3>Progress</h3>
                <${Chart} label=${`${chosen}'s average score by meeting, over time`} data=${model.data} series=${model.series} xTime
                  yLabel="Average score" yRange=${model.yRange} table=${{ columns: ['Meeting', 'Scenario', 'Average score'], rows: model.rows }} />`
          }`
    }
  <//>`;
}

export default function Results({ query }) {
  const lists = useApi(
    () => Promise.all([fetchAll('scenarios', {}, 200), fetchAll('meetings', {}, 1000)]),
    [],
  );
  const setQuery = (changes) => {
    const next = new URLSearchParams(Object.entries({ ...query, ...changes }).filter(([, value]) => value));
    navigate(`/results?${next}`, { replace: true });
  };
  return html`<div class="page">
    <${PageHeader} title="Results" description="How scores spread and move over time, per scenario and per participant." />
    <${Async} state=${lists} rows=${6}
      empty=${{ when: ([scenarios]) => scenarios.length === 0, title: 'No scenarios yet', text: 'Create a scenario and run meetings to see results.' }}>
      ${([scenarios, meetings]) => {
        const scenarioId = scenarios.some((scenario) => scenario.id === query.scenario)
          ? query.scenario
          : bestScenario(scenarios, meetings);
        return html`<div class="stack">
          <${ByScenario} scenarios=${scenarios} scenarioId=${scenarioId} onPick=${(value) => setQuery({ scenario: value })} />
          <${ByParticipant} meetings=${meetings} name=${query.person} onPick=${(value) => setQuery({ person: value })} />
        </div>`;
      }}
    <//>
  </div>`;
}

/** Without a choice, the scenario of the latest analysed meeting (else the first scenario). */
function bestScenario(scenarios, meetings) {
  const latest = meetings.find(
    (meeting) => meeting.average_score !== null && meeting.average_score !== undefined,
  );
  return latest?.scenario_id ?? scenarios[0]?.id ?? '';
}
