// A meeting's analysis as GET /v1/meetings/{id} embeds it: the summary, each goal's score with its
// feedback, strengths and growth areas, and the speech analytics (filler words, weak words,
// repetitions, sentence starters, how much the participant spoke).
import { Badge, Card, EmptyState } from '../../components/ui.js';
import { formatDuration, formatNumber, formatScore } from '../../format.js';
import { html } from '../../lib.js';

const METRICS = [
  ['filler_words', 'Filler words'],
  ['weak_words', 'Weak words'],
  ['repetitions', 'Repetitions'],
  ['sentence_starters', 'Sentence starters'],
];

/** "6/10": a score with the top of its goal's range, when the API gives it. */
export function scoreOutOf(score, max) {
  const shown = formatScore(score);
  return max === undefined || max === null || shown === '—' ? shown : `${shown}/${formatScore(max)}`;
}

/** The range every goal shares, or null when they differ (an average over mixed scales has no top). */
export function sharedMax(results) {
  const tops = new Set((results ?? []).map((result) => result.score_max));
  return tops.size === 1 ? [...tops][0] : null;
}

function GoalResults({ results }) {
  if (!results?.length) return html`<p class="muted">This scenario has no goals to score.</p>`;
  return html`<ul class="goal-results">
    ${results.map(
      (result) => html`<li class="goal-result">
        <div class="goal-result__head">
          <h4>${result.goal?.name ?? 'A deleted goal'}</h4>
          <span class="goal-result__score" aria-label=${`Score ${formatScore(result.score)}${result.score_max != null ? ` out of ${formatScore(result.score_max)}` : ''}`}>${scoreOutOf(result.score, result.score_max)}</span>
        </div>
        <p>${result.short_description}</p>
        ${result.feedback && html`<p>${result.feedback}</p>`}
        ${
          result.long_description &&
          result.long_description !== result.short_description &&
          html`<details class="goal-result__method"><summary class="muted small">How this was scored</summary>
            <p class="muted small">${result.long_description}</p></details>`
        }
      </li>`,
    )}
  </ul>`;
}

function Bullets({ title, items, empty }) {
  return html`<div>
    <h3>${title}</h3>
    ${items?.length ? html`<ul class="list list--bullets">${items.map((item) => html`<li>${item}</li>`)}</ul>` : html`<p class="muted">${empty}</p>`}
  </div>`;
}

function Metric({ label, metric }) {
  if (!metric) return null;
  return html`<div class="metric">
    <h3>${label}</h3>
    <p class="metric__value">${formatNumber(metric.total)}${
      metric.per_minute !== null &&
      metric.per_minute !== undefined &&
      html` <span class="muted small">(${Number(metric.per_minute).toFixed(1)} a minute)</span>`
    }</p>
    ${
      metric.items?.length > 0 &&
      html`<ul class="chips">${metric.items.slice(0, 8).map((item) => html`<li><${Badge}>${item.text} × ${item.count}<//></li>`)}</ul>`
    }
  </div>`;
}

/** The participant's share of the conversation, when the analysis measured both. */
function talkRatio(analysis) {
  const spoke = Number(analysis.participant_speaking_minutes) * 60;
  const length = Number(analysis.conversation_length);
  if (!Number.isFinite(spoke) || !length) return null;
  return { spoke, length, percent: Math.min(100, Math.round((spoke / length) * 100)) };
}

export function AnalysisView({ analysis, status }) {
  if (!analysis) {
    const text =
      status === 'processing'
        ? 'The new analysis appears here when it is ready.'
        : status === 'failed'
          ? 'The last analysis failed. Run it again.'
          : 'The analysis starts when the meeting ends.';
    return html`<${Card} title="Analysis"><${EmptyState} title="No analysis yet">${text}<//><//>`;
  }
  const ratio = talkRatio(analysis);
  return html`<div class="stack" data-analysis>
    <${Card} title="Analysis" actions=${html`<span class="analysis__average">Average score <strong>${scoreOutOf(analysis.average_score, sharedMax(analysis.goal_results))}</strong></span>`}>
      ${analysis.summary && html`<p class="prose">${analysis.summary}</p>`}
      <h3 class="section-title">Goals</h3>
      <${GoalResults} results=${analysis.goal_results} />
      <div class="grid grid--2">
        <${Bullets} title="Strengths" items=${analysis.strengths} empty="None noted." />
        <${Bullets} title="Growth areas" items=${analysis.growth_areas} empty="None noted." />
      </div>
      ${analysis.recommendations?.length > 0 && html`<${Bullets} title="Recommendations" items=${analysis.recommendations} />`}
    <//>
    <${Card} title="Speech analytics">
      <div class="metrics">
        ${METRICS.map(([key, label]) => html`<${Metric} label=${label} metric=${analysis[key]} />`)}
        <div class="metric">
          <h3>Words spoken</h3>
          <p class="metric__value">${formatNumber(analysis.participant_word_count)}</p>
        </div>
        ${
          ratio &&
          html`<div class="metric">
            <h3>Talk ratio</h3>
            <p class="metric__value">${ratio.percent}%</p>
            <p class="muted small">${formatDuration(ratio.spoke)} of ${formatDuration(ratio.length)} spoken by the participant</p>
          </div>`
        }
      </div>
    <//>
  </div>`;
}
