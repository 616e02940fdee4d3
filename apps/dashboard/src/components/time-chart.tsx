import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

export interface ChartSeries {
  label: string;
  values: number[];
  color: string;
}

/**
 * A time series chart (uPlot, drawn on a canvas) that follows its container's width. The figure
 * has a text alternative: its title and the totals beside it say what it shows.
 */
/** Tick steps for counts: whole numbers only (no "1.5 requests"). */
const WHOLE_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 2e6, 5e6, 1e7, 2e7, 5e7, 1e8, 1e9];

/**
 * Every chart's value axis is this wide, whatever its labels ("$0.00002" or "12"), so charts of
 * the same range share one plot width and therefore the same time ticks, one under the other.
 */
const Y_AXIS_WIDTH = 84;

export function TimeChart({ title, times, series, format, summary, whole = false }: { title: string; times: number[]; series: ChartSeries[]; format: (value: number) => string; summary: string; whole?: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    const width = (): number => Math.max(260, element.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: 200,
        legend: { show: true, live: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
        axes: [
          { stroke: 'currentColor', grid: { stroke: 'rgba(127,127,127,0.15)' }, ticks: { stroke: 'rgba(127,127,127,0.3)' } },
          { stroke: 'currentColor', grid: { stroke: 'rgba(127,127,127,0.15)' }, ticks: { stroke: 'rgba(127,127,127,0.3)' }, ...(whole ? { incrs: WHOLE_STEPS } : {}), size: Y_AXIS_WIDTH, values: (_u, ticks) => ticks.map(format) },
        ],
        series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, fill: `${s.color}22`, width: 2, points: { show: times.length < 60 }, value: (_u: uPlot, v: number | null) => (v === null ? '—' : format(v)) }))],
      },
      [times, ...series.map((s) => s.values)],
      element,
    );
    const observer = new ResizeObserver(() => plot.setSize({ width: width(), height: 200 }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [times, series, format, whole]);
  return (
    <figure class="chart">
      <figcaption>
        <span class="chart-title">{title}</span> <span class="muted">{summary}</span>
      </figcaption>
      <div ref={box} class="chart-box" role="img" aria-label={`${title}: ${summary}`} />
    </figure>
  );
}
