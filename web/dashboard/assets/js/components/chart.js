// A uPlot chart that fills its container's width (a ResizeObserver follows it) at a fixed height,
// so nothing below it moves when the data arrives or the window is resized. Every chart has an
// accessible name and the same numbers as a table in a <details>, for screen readers and for
// anyone who wants the exact values.
import uPlot from '/dashboard-assets/vendor/uplot.js';
import { html, useEffect, useRef } from '../lib.js';

/** Series colours; `.chart-swatch--<n>` in dashboard.css uses the same ones for the legend. */
export const SERIES_COLORS = [
  '#4338ca',
  '#0f766e',
  '#b45309',
  '#be185d',
  '#1d4ed8',
  '#4d7c0f',
  '#7c3aed',
  '#b91c1c',
];
export const seriesColor = (index) => SERIES_COLORS[index % SERIES_COLORS.length];

/** Bars for a histogram series (`paths` of a uPlot series). */
export const barPaths = () => uPlot.paths.bars({ size: [0.7, 64] });

/** The plot's height in pixels; `.chart--fixed` reserves the same before the data arrives. */
const HEIGHT = 240;

const AXIS = { stroke: '#535c6b', grid: { stroke: '#eceef2' }, ticks: { stroke: '#dfe2e8' } };

/** Ticks on whole numbers only: a count of meetings is never 0.25, a 1–10 score tick never 2.5. */
const WHOLE_TICKS = {
  incrs: [1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000],
  values: (_plot, ticks) => ticks.map((tick) => String(tick)),
};

/**
 * The span of `values` with a little room either side; one value alone gets `unit` either side
 * (uPlot's own guess for a single time point is a thousand days long).
 */
export function spanOf(values, unit) {
  const finite = values.filter((value) => Number.isFinite(value));
  if (finite.length === 0) return [0, unit];
  const low = Math.min(...finite);
  const high = Math.max(...finite);
  const pad = low === high ? unit : (high - low) * 0.04;
  return [low - pad, high + pad];
}

/**
 * `label`: the chart's accessible name. `data`: uPlot's columns (`[xs, ys1, ys2, …]`). `series`:
 * `[{ label, paths?, points? }]` for the y columns. `xTime`: x values are Unix seconds.
 * `xRange`/`yRange`: fixed `[min, max]` (a score's scale); `yRange` may also be `'count'` (from 0,
 * whole numbers). `xWhole`: whole-number ticks on x.
 * `table`: `{ columns: [label], rows: [[cell]] }` for the data-table alternative.
 */
export function Chart({
  label,
  data,
  series,
  xTime = false,
  xLabel,
  yLabel,
  table,
  xRange,
  yRange,
  xWhole = false,
}) {
  const box = useRef(null);
  const plot = useRef(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    const options = {
      width: Math.max(200, element.clientWidth),
      height: HEIGHT,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: {
        x: {
          time: xTime,
          range: (plot) => xRange ?? spanOf(plot.data[0], xTime ? 86_400 : 1),
        },
        y: {
          range: (_plot, _min, max) =>
            yRange === 'count' ? [0, Math.max(1, Math.ceil(max ?? 0))] : (yRange ?? spanOf([_min, max], 1)),
        },
      },
      axes: [
        { ...AXIS, label: xLabel, ...(xWhole ? WHOLE_TICKS : {}) },
        { ...AXIS, label: yLabel, ...(yRange ? WHOLE_TICKS : {}) },
      ],
      // The drawn ranges, readable from the page (the browser tests check them; the canvas is opaque).
      hooks: {
        draw: [
          (drawn) => {
            const { x, y } = drawn.scales;
            element.dataset.ranges = JSON.stringify({ x: [x.min, x.max], y: [y.min, y.max] });
          },
        ],
      },
      series: [
        {},
        ...series.map((one, index) => ({
          label: one.label,
          stroke: seriesColor(index),
          fill: one.paths ? `${seriesColor(index)}55` : undefined,
          width: 2,
          paths: one.paths,
          points: one.points ?? { show: true, size: 6 },
          spanGaps: true,
        })),
      ],
    };
    plot.current = new uPlot(options, data, element);
    const observer = new ResizeObserver(() => {
      const width = Math.max(200, element.clientWidth);
      if (plot.current && plot.current.width !== width) plot.current.setSize({ width, height: HEIGHT });
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
  }, [data, series, xTime, xRange, yRange, xWhole]);

  return html`<figure class="chart-figure">
    <div class="chart chart--fixed" role="img" aria-label=${label} ref=${box}></div>
    ${
      series.length > 1 &&
      html`<ul class="chart-legend" aria-hidden="true">
        ${series.map((one, index) => html`<li><span class=${`chart-swatch chart-swatch--${index % SERIES_COLORS.length}`}></span>${one.label}</li>`)}
      </ul>`
    }
    ${
      table &&
      html`<details class="chart-table">
        <summary>Show the data as a table</summary>
        <div class="table-wrap">
          <table class="table">
            <caption class="visually-hidden">${label}</caption>
            <thead><tr>${table.columns.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead>
            <tbody>${table.rows.map((row) => html`<tr>${row.map((cell, index) => html`<td data-label=${table.columns[index]}>${cell}</td>`)}</tr>`)}</tbody>
          </table>
        </div>
      </details>`
    }
  </figure>`;
}
