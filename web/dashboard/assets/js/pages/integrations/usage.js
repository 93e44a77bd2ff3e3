// What the workspace consumed (GET /v1/usage): meetings, session minutes and model tokens over a
// period, split by who answered the persona, with a chart of the providers' session minutes.
import { api } from '../../api.js';
import { Async, Card, PageHeader, Select, Table } from '../../components/ui.js';
import { formatDate, formatNumber } from '../../format.js';
import { useApi } from '../../hooks.js';
import { html, useEffect, useRef, useState } from '../../lib.js';

const PERIODS = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
];
const PROVIDER_NAMES = { custom_agent: 'Your agent', llm: 'Platform model', offline: 'Scripted engine' };

function Figure({ label, value, hint }) {
  return html`<div class="figure">
    <p class="figure__label">${label}</p>
    <p class="stat">${value}</p>
    ${hint && html`<p class="muted small">${hint}</p>`}
  </div>`;
}

/** Session minutes per provider as bars (uPlot, loaded only when there is something to draw). */
function ProviderChart({ rows }) {
  const box = useRef(null);
  useEffect(() => {
    let chart;
    let cancelled = false;
    import('/dashboard-assets/vendor/uplot.js').then((module) => {
      if (cancelled || !box.current) return;
      const uPlot = module.default;
      const x = rows.map((_, index) => index);
      chart = new uPlot(
        {
          width: box.current.clientWidth || 320,
          height: 220,
          scales: { x: { time: false, range: [-0.5, rows.length - 0.5] } },
          axes: [
            { values: (_, ticks) => ticks.map((tick) => PROVIDER_NAMES[rows[tick]?.provider] ?? '') },
            { label: 'Minutes' },
          ],
          series: [
            {},
            {
              label: 'Session minutes',
              stroke: '#4338ca',
              fill: 'rgba(67, 56, 202, 0.25)',
              paths: uPlot.paths.bars({ size: [0.5, 80] }),
              points: { show: false },
            },
          ],
          legend: { show: false },
        },
        [x, rows.map((row) => row.session_minutes)],
        box.current,
      );
    });
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [rows]);
  const summary = rows
    .map((row) => `${PROVIDER_NAMES[row.provider] ?? row.provider}: ${row.session_minutes} minutes`)
    .join('; ');
  return html`<figure class="usage-chart">
    <div class="chart" ref=${box} role="img" aria-label=${`Session minutes by provider. ${summary}`}></div>
  </figure>`;
}

export default function Usage() {
  const [days, setDays] = useState('30');
  const usage = useApi(() => {
    const to = new Date();
    const from = new Date(to.getTime() - Number(days) * 86_400_000);
    return api.get('usage', { from: from.toISOString(), to: to.toISOString() }).then((body) => body.data);
  }, [days]);

  return html`<div class="page">
    <${PageHeader} title="Usage"
      description="What your workspace used: practice meetings, their session minutes and the model tokens of meetings answered by the platform's model."
      actions=${html`<div class="toolbar"><${Select} label="Period" value=${days} onChange=${setDays} options=${PERIODS} /></div>`} />
    <${Async} state=${usage} rows=${4}>
      ${(data) => html`<p class="muted">${formatDate(data.from)} to ${formatDate(data.to)}</p>
        <div class="grid grid--3 figures">
          <${Figure} label="Meetings" value=${formatNumber(data.meetings)} />
          <${Figure} label="Session minutes" value=${formatNumber(data.session_minutes)} hint="Rounded up per meeting." />
          <${Figure} label="Model tokens" value=${formatNumber(data.total_tokens)}
            hint=${`${formatNumber(data.prompt_tokens)} prompt, ${formatNumber(data.completion_tokens)} completion`} />
          <${Figure} label="Persona turns" value=${formatNumber(data.turns)} />
        </div>
        <${Card} title="By provider">
          ${
            data.by_provider.length === 0
              ? html`<p class="muted">No meetings in this period.</p>`
              : html`<${ProviderChart} rows=${data.by_provider} />
                <${Table} caption="Usage by provider" rowKey=${(row) => row.provider} rows=${data.by_provider} columns=${[
                  { label: 'Provider', render: (row) => PROVIDER_NAMES[row.provider] ?? row.provider },
                  { label: 'Meetings', render: (row) => formatNumber(row.meetings) },
                  { label: 'Session minutes', render: (row) => formatNumber(row.session_minutes) },
                  { label: 'Tokens', render: (row) => formatNumber(row.total_tokens) },
                ]} />`
          }
        <//>
        <${Card} title="Who answered the persona">
          <${AnsweredBy} answered=${data.answered_by} />
        <//>`}
    <//>
  </div>`;
}

function AnsweredBy({ answered }) {
  return html`<dl class="details">
    <div><dt>Your agent</dt><dd>${formatNumber(answered.custom_agent)} turns</dd></div>
    <div><dt>Platform model</dt><dd>${formatNumber(answered.llm)} turns</dd></div>
    <div><dt>Scripted engine</dt><dd>${formatNumber(answered.offline)} turns</dd></div>
    <div><dt>Apologies (every provider failed)</dt><dd>${formatNumber(answered.apology)} turns</dd></div>
  </dl>`;
}
