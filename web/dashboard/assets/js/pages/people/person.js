// One person's practice over time (GET /v1/people/{id}/progress): each goal's score meeting after
// meeting, their meetings with scores, and the feedback each analysis gave them.
import { api } from '../../api.js';
import { Chart } from '../../components/chart.js';
import {
  Async,
  Button,
  Card,
  ConfirmButton,
  Details,
  PageHeader,
  StatusBadge,
  TextInput,
} from '../../components/ui.js';
import { formatDateTime, formatScore } from '../../format.js';
import { useAction, useApi } from '../../hooks.js';
import { html, useMemo, useState } from '../../lib.js';
import { href, navigate } from '../../router.js';
import { mayCoach, useSession } from '../../session.js';
import { scaleTop } from '../meetings/results.js';
import { GroupBadges, parseGroups } from './list.js';

const unixSeconds = (value) => Math.floor(new Date(value).getTime() / 1000);

function GoalProgress({ progress }) {
  const model = useMemo(() => {
    const scored = progress.meetings.filter((meeting) => meeting.goal_results.length > 0);
    const scoreOf = (meeting, goal) =>
      meeting.goal_results.find((result) =>
        goal.goal_id ? result.goal_id === goal.goal_id : result.name === goal.name,
      )?.score ?? null;
    const data = [
      scored.map((meeting) => unixSeconds(meeting.at)),
      ...progress.goals.map((goal) => scored.map((meeting) => scoreOf(meeting, goal))),
    ];
    const maxima = progress.goals.flatMap((goal) => goal.points.map((point) => point.score_max));
    return {
      data,
      yRange: [0, scaleTop(data.slice(1).flat(), maxima)],
      series: progress.goals.map((goal) => ({ label: goal.name })),
      columns: ['Meeting', 'Scenario', ...progress.goals.map((goal) => goal.name)],
      rows: scored.map((meeting) => [
        html`<a href=${href(`/meetings/${meeting.id}`)}>${formatDateTime(meeting.at)}</a>`,
        meeting.scenario.name ?? '—',
        ...progress.goals.map((goal) => formatScore(scoreOf(meeting, goal))),
      ]),
    };
  }, [progress]);
  if (model.series.length === 0) return html`<p class="muted">No scored meetings yet.</p>`;
  return html`<${Chart} label=${`${progress.person.name}'s score on each goal, meeting after meeting`} data=${model.data}
    series=${model.series} xTime yLabel="Score" yRange=${model.yRange} table=${{ columns: model.columns, rows: model.rows }} />`;
}

function Meetings({ progress }) {
  const meetings = [...progress.meetings].reverse();
  if (meetings.length === 0) return html`<p class="muted">No meetings yet.</p>`;
  return html`<ul class="stack person__meetings">
    ${meetings.map(
      (meeting) => html`<li key=${meeting.id} class="person__meeting">
        <p><a href=${href(`/meetings/${meeting.id}`)}><strong>${meeting.scenario.name ?? 'A deleted scenario'}</strong></a>
          <span class="muted small"> · ${formatDateTime(meeting.at)} · </span><${StatusBadge} status=${meeting.analysis_status === 'completed' ? meeting.status : meeting.analysis_status} />
          ${meeting.average_score !== null && html`<span class="small"> · average ${formatScore(meeting.average_score)}</span>`}</p>
        ${
          meeting.goal_results.length > 0 &&
          html`<ul class="list small">
            ${meeting.goal_results.map(
              (result) =>
                html`<li key=${result.name}><strong>${result.name}</strong>: ${formatScore(result.score)}/${result.score_max} — ${result.feedback}</li>`,
            )}
          </ul>`
        }
      </li>`,
    )}
  </ul>`;
}

/** The groups they are in, changed in place. */
function GroupsEditor({ person, onSaved }) {
  const [text, setText] = useState((person.groups ?? []).join(', '));
  const [save, { busy, error }] = useAction(async (event) => {
    event.preventDefault();
    const saved = (await api.patch(`people/${person.id}`, { groups: parseGroups(text) })).data;
    setText(saved.groups.join(', '));
    onSaved(saved);
  });
  return html`<form class="inline-form" onSubmit=${save} noValidate>
    <${TextInput} label="Groups" value=${text} onInput=${setText} placeholder="Sales EMEA, Q1 cohort"
      hint="Separated by commas." error=${error?.message ?? null} />
    <${Button} type="submit" busy=${busy}>Save groups<//>
  </form>`;
}

export default function Person({ params }) {
  const { session } = useSession();
  const progress = useApi(
    () => api.get(`people/${params.id}/progress`).then((body) => body.data),
    [params.id],
  );
  const remove = async () => {
    await api.del(`people/${params.id}`);
    navigate('/people');
  };
  return html`<div class="page">
    <${Async} state=${progress} rows=${5}>
      ${(data) => html`
        <${PageHeader} title=${data.person.name} description="Their practice over time: scores per goal, meetings and the feedback they received."
          actions=${html`<${ConfirmButton} label="Delete" buttonVariant="ghost" title=${`Delete ${data.person.name}?`}
            message="Their meetings stay, linked to nobody." onConfirm=${remove} />`} />
        <${Card} title="Details">
          <${Details} items=${[
            ['E-mail', data.person.email],
            ['External id', data.person.external_id],
            ['Groups', html`<${GroupBadges} groups=${data.person.groups} />`],
            ['Meetings', data.meetings.length],
            ['Added', formatDateTime(data.person.created_at)],
          ]} />
          ${
            mayCoach(session?.role) &&
            html`<${GroupsEditor} person=${data.person}
            onSaved=${(person) => progress.setData((previous) => ({ ...previous, person: { ...previous.person, ...person } }))} />`
          }
        <//>
        <${Card} title="Goals over time"><${GoalProgress} progress=${data} /><//>
        <${Card} title="Meetings and feedback"><${Meetings} progress=${data} /><//>`}
    <//>
  </div>`;
}
