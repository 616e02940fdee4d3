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
export function TimeChart({ title, times, series, format, summary }: { title: string; times: number[]; series: ChartSeries[]; format: (value: number) => string; summary: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    const width = (): number => Math.max(260, element.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: 200,
        legend: { show: series.length > 1 },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
        axes: [
          { stroke: 'currentColor', grid: { stroke: 'rgba(127,127,127,0.15)' }, ticks: { stroke: 'rgba(127,127,127,0.3)' } },
          { stroke: 'currentColor', grid: { stroke: 'rgba(127,127,127,0.15)' }, ticks: { stroke: 'rgba(127,127,127,0.3)' }, size: 70, values: (_u, ticks) => ticks.map(format) },
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
  }, [times, series, format]);
  return (
    <figure class="chart">
      <figcaption>
        <span class="chart-title">{title}</span> <span class="muted">{summary}</span>
      </figcaption>
      <div ref={box} class="chart-box" role="img" aria-label={`${title}: ${summary}`} />
    </figure>
  );
}
