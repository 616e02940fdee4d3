/**
 * This replica's metrics in the Prometheus text format (`GET /metrics`), without a dependency.
 * Counters and histograms are updated where things happen, with an array lookup and an add;
 * gauges (queue lengths, circuit states, memory) are read only when scraped. Label values are
 * bounded sets — dialects, model ids, provider slugs, statuses — never keys, prompts or URLs.
 */
import { readdirSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Injectable } from '@nestjs/common';

type Labels = readonly string[];

interface Series {
  labels: Labels;
  value: number;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function labelText(names: Labels, values: Labels, extra = ''): string {
  const parts = names.map((n, i) => `${n}="${escapeLabel(values[i] ?? '')}"`);
  if (extra) parts.push(extra);
  return parts.length === 0 ? '' : `{${parts.join(',')}}`;
}

function number(value: number): string {
  if (value === Infinity) return '+Inf';
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(12)));
}

interface Metric {
  render(out: string[]): void;
}

export class Counter implements Metric {
  private readonly series = new Map<string, Series>();

  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly labelNames: Labels = [],
  ) {}

  inc(labels: Labels = [], by = 1): void {
    if (!(by > 0)) return;
    const key = labels.join('\u0001');
    const s = this.series.get(key);
    if (s) s.value += by;
    else this.series.set(key, { labels: [...labels], value: by });
  }

  /** The current value of one series (0 when never incremented). */
  value(labels: Labels = []): number {
    return this.series.get(labels.join('\u0001'))?.value ?? 0;
  }

  render(out: string[]): void {
    out.push(`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`);
    for (const s of this.series.values()) out.push(`${this.name}${labelText(this.labelNames, s.labels)} ${number(s.value)}`);
  }
}

interface HistogramSeries {
  labels: Labels;
  counts: number[];
  sum: number;
  count: number;
}

export class Histogram implements Metric {
  private readonly series = new Map<string, HistogramSeries>();

  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly labelNames: Labels,
    private readonly buckets: readonly number[],
  ) {}

  observe(labels: Labels, value: number): void {
    if (!Number.isFinite(value)) return;
    const key = labels.join('\u0001');
    let s = this.series.get(key);
    if (!s) {
      s = { labels: [...labels], counts: new Array<number>(this.buckets.length).fill(0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    const i = this.buckets.findIndex((b) => value <= b);
    if (i >= 0) s.counts[i] = (s.counts[i] ?? 0) + 1;
    s.sum += value;
    s.count++;
  }

  render(out: string[]): void {
    out.push(`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`);
    for (const s of this.series.values()) {
      let cumulative = 0;
      this.buckets.forEach((b, i) => {
        cumulative += s.counts[i] ?? 0;
        out.push(`${this.name}_bucket${labelText(this.labelNames, s.labels, `le="${number(b)}"`)} ${cumulative}`);
      });
      out.push(`${this.name}_bucket${labelText(this.labelNames, s.labels, 'le="+Inf"')} ${s.count}`);
      out.push(`${this.name}_sum${labelText(this.labelNames, s.labels)} ${number(s.sum)}`);
      out.push(`${this.name}_count${labelText(this.labelNames, s.labels)} ${s.count}`);
    }
  }
}

export interface GaugeSample {
  labels?: Record<string, string>;
  value: number;
}

class Gauge implements Metric {
  constructor(
    private readonly name: string,
    private readonly help: string,
    private readonly read: () => GaugeSample[],
    /** `counter` for a monotonic value read at scrape time (process CPU seconds). */
    private readonly type: 'gauge' | 'counter' = 'gauge',
  ) {}

  render(out: string[]): void {
    let samples: GaugeSample[];
    try {
      samples = this.read();
    } catch {
      return; // a collector that fails leaves its gauge out of this scrape, not the whole page
    }
    out.push(`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`);
    for (const s of samples) {
      const names = Object.keys(s.labels ?? {});
      out.push(`${this.name}${labelText(names, names.map((n) => s.labels?.[n] ?? ''))} ${number(s.value)}`);
    }
  }
}

const LOOP_WINDOW_MS = 60_000;

/** Seconds; from a fast cache-hit answer to a long generation. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

@Injectable()
export class MetricsService {
  private readonly metrics = new Map<string, Metric>();
  private readonly started = Date.now();

  /** Event-loop delay, sampled every 20 ms and reported per fixed minute, whoever scrapes. */
  private readonly loopDelay = monitorEventLoopDelay({ resolution: 20 });
  private lastLoopWindow: GaugeSample[] = [];
  private readonly loopWindowTimer: NodeJS.Timeout;

  constructor() {
    this.loopDelay.enable();
    this.loopWindowTimer = setInterval(() => this.closeLoopWindow(), LOOP_WINDOW_MS);
    this.loopWindowTimer.unref();
    this.gauge('process_resident_memory_bytes', 'Resident memory of this replica.', () => [{ value: process.memoryUsage.rss() }]);
    this.gauge('nodejs_heap_used_bytes', 'V8 heap in use.', () => [{ value: process.memoryUsage().heapUsed }]);
    this.gauge('nodejs_heap_total_bytes', 'V8 heap reserved.', () => [{ value: process.memoryUsage().heapTotal }]);
    this.gauge('process_uptime_seconds', 'Seconds since this replica started.', () => [{ value: (Date.now() - this.started) / 1000 }]);
    this.gauge('process_cpu_seconds_total', 'CPU time (user and system) this replica has used.', () => {
      const { user, system } = process.cpuUsage();
      return [{ value: (user + system) / 1e6 }];
    }, 'counter');
    this.gauge('process_open_fds', 'Open file descriptors (sockets included).', () => [{ value: readdirSync('/proc/self/fd').length }]);
    this.gauge('nodejs_active_resources', 'Handles and requests keeping the event loop alive (sockets, timers).', () => [{ value: process.getActiveResourcesInfo().length }]);
    this.gauge('nodejs_eventloop_delay_seconds', 'Event-loop delay over the last full minute: how long ready work waited (p50, p99, max).', () => this.lastLoopWindow);
  }

  /**
   * Ends the current event-loop window: its p50, p99 and max become what scrapes report until the
   * next one ends. On a timer, not per scrape, so two scrapers (an HA pair) see the same figures.
   */
  closeLoopWindow(): void {
    const h = this.loopDelay;
    this.lastLoopWindow = h.count === 0 ? [] : [
      { labels: { quantile: '0.5' }, value: h.percentile(50) / 1e9 },
      { labels: { quantile: '0.99' }, value: h.percentile(99) / 1e9 },
      { labels: { quantile: '1' }, value: h.max / 1e9 },
    ];
    h.reset();
  }

  onModuleDestroy(): void {
    clearInterval(this.loopWindowTimer);
    this.loopDelay.disable();
  }

  counter(name: string, help: string, labelNames: Labels = []): Counter {
    return this.register(name, () => new Counter(name, help, labelNames));
  }

  histogram(name: string, help: string, labelNames: Labels, buckets: readonly number[] = LATENCY_BUCKETS): Histogram {
    return this.register(name, () => new Histogram(name, help, labelNames, buckets));
  }

  /** A value read at scrape time. */
  gauge(name: string, help: string, read: () => GaugeSample[], type: 'gauge' | 'counter' = 'gauge'): void {
    this.metrics.set(name, new Gauge(name, help, read, type));
  }

  /** The exposition text (format 0.0.4). */
  render(): string {
    const out: string[] = [];
    for (const m of this.metrics.values()) m.render(out);
    return out.join('\n') + '\n';
  }

  /** Registering a name twice returns the first metric, so modules may share one. */
  private register<T extends Metric>(name: string, create: () => T): T {
    const existing = this.metrics.get(name);
    if (existing) return existing as T;
    const metric = create();
    this.metrics.set(name, metric);
    return metric;
  }
}
