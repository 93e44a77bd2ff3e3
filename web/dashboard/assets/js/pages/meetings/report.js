// A meeting's learner report (docs/reports.md), laid out for paper: each goal's score with the
// participant's own sentences it rests on, feedback, strengths, growth areas, what to practise
// next and the coach's comment, which coaches write here. "Print or save as PDF" is the browser's
// print; the navigation, the buttons and the comment's editor stay off the page (dashboard.css).
import { api } from '../../api.js';
import { Async, Button, ErrorNotice, Notice, PageHeader, TextArea } from '../../components/ui.js';
import { formatDateTime, formatDuration, formatScore } from '../../format.js';
import { useAction, useApi } from '../../hooks.js';
import { html, useState } from '../../lib.js';
import { href } from '../../router.js';
import { mayCoach, useSession } from '../../session.js';
import { scoreOutOf } from './analysis.js';

function Goal({ goal }) {
  const percent =
    goal.score_max > goal.score_min
      ? ((goal.score - goal.score_min) / (goal.score_max - goal.score_min)) * 100
      : 100;
  return html`<li class="report-goal">
    <div class="goal-result__head">
      <h3>${goal.name}</h3>
      <span class="goal-result__score"><span aria-hidden="true">${scoreOutOf(goal.score, goal.score_max)}</span><span class="visually-hidden">Score ${formatScore(goal.score)} out of ${formatScore(goal.score_max)}</span></span>
    </div>
    <div class="report-goal__bar" aria-hidden="true"><span style=${`width:${Math.max(0, Math.min(100, percent))}%`}></span></div>
    <p>${goal.feedback}</p>
    ${
      goal.evidence.length > 0 &&
      html`<ul class="report-goal__evidence" aria-label=${`What they said for ${goal.name}`}>
        ${goal.evidence.map((quote) => html`<li><q>${quote.text}</q> <span class="muted small">at ${quote.start}</span></li>`)}
      </ul>`
    }
  </li>`;
}

function List({ title, items }) {
  if (!items?.length) return null;
  return html`<section class="report-section">
    <h2>${title}</h2>
    <ul class="list list--bullets">${items.map((item) => html`<li>${item}</li>`)}</ul>
  </section>`;
}

function CommentEditor({ meetingId, comment, onSaved }) {
  const [text, setText] = useState(comment?.text ?? '');
  const [save, saving] = useAction(async () =>
    onSaved((await api.put(`meetings/${meetingId}/report/comment`, { text })).data),
  );
  const [remove, removing] = useAction(async () =>
    onSaved((await api.del(`meetings/${meetingId}/report/comment`)).data),
  );
  return html`<form class="stack no-print" onSubmit=${(event) => {
    event.preventDefault();
    save();
  }}>
    <${TextArea} label="Your comment" value=${text} onInput=${setText} rows=${4} maxlength="5000"
      hint="Shown on this report, and to the participant with their results when the scenario shares them."
      error=${saving.error?.param === 'text' ? saving.error.message : null} />
    <${ErrorNotice} error=${saving.error?.param === 'text' ? null : (saving.error ?? removing.error)} />
    <div class="row-actions">
      <${Button} type="submit" variant="primary" busy=${saving.busy}>${comment ? 'Update comment' : 'Save comment'}<//>
      ${comment && html`<${Button} variant="ghost" busy=${removing.busy} onClick=${() => remove()}>Remove<//>`}
    </div>
  </form>`;
}

function Report({ report, onChanged }) {
  const { session } = useSession();
  const { meeting, results, coach_comment: comment } = report;
  return html`<article class="report">
    <p class="muted">
      ${meeting.scenario.name}${meeting.persona_name ? ` with ${meeting.persona_name}` : ''} ·
      ${meeting.ended_at ? formatDateTime(meeting.ended_at) : 'not ended yet'}
      ${meeting.duration_seconds != null ? ` · ${formatDuration(meeting.duration_seconds)}` : ''}
    </p>
    ${
      report.status === 'ready'
        ? html`<section class="report-section">
            <h2>Score per goal</h2>
            <ul class="report-goals">${results.goals.map((goal) => html`<${Goal} goal=${goal} />`)}</ul>
          </section>
          <${List} title="Strengths" items=${results.strengths} />
          <${List} title="Growth areas" items=${results.growth_areas} />
          <${List} title="What to practise next" items=${results.practise_next.map((entry) => (entry.goal ? `${entry.goal}: ${entry.text}` : entry.text))} />`
        : html`<${Notice}>${report.status === 'unavailable' ? 'The analysis failed: re-run it from the meeting page.' : 'The report is ready once the meeting has ended and its analysis is written.'}<//>`
    }
    <section class="report-section">
      <h2>From your coach</h2>
      ${
        comment
          ? html`<blockquote class="report-comment">${comment.text}</blockquote>
            <p class="muted small">${comment.author ?? 'Your coach'}, ${formatDateTime(comment.updated_at)}</p>`
          : html`<p class="muted no-print">No comment yet.</p>`
      }
      ${mayCoach(session?.role) && html`<${CommentEditor} meetingId=${meeting.id} comment=${comment} onSaved=${onChanged} />`}
    </section>
    <p class="muted small no-print">${report.shared_with_participant ? 'The participant sees this report (without your team’s summary) through their meeting link.' : 'This scenario does not share results: only your team sees this report.'}</p>
  </article>`;
}

export default function MeetingReport({ params }) {
  const report = useApi(() => api.get(`meetings/${params.id}/report`).then((body) => body.data), [params.id]);
  const title = report.data
    ? `Learner report: ${report.data.meeting.person_name || 'Unnamed participant'}`
    : 'Learner report';
  return html`<div class="page">
    <${PageHeader} title=${title} back=${{ href: href(`/meetings/${params.id}`), label: 'Meeting' }}
      actions=${html`<${Button} onClick=${() => window.print()}>Print or save as PDF<//>`} />
    <${Async} state=${report} rows=${6}>
      ${(data) => html`<${Report} report=${data} onChanged=${report.setData} />`}
    <//>
  </div>`;
}
