/**
 * This replica's metrics in the Prometheus text format (`GET /metrics`), kept by prom-client in a
 * registry of the service's own, with prom-client's default process, heap, event-loop and GC
 * metrics beside Rosetta's. Counters and histograms are updated where things happen, at a constant
 * cost: a counter gathers its increments and hands them to prom-client when scraped, a histogram
 * counts its buckets itself and the registry writes them out. Gauges (queue lengths, circuit
 * states) are read only when scraped. Label values are bounded sets — dialects, model ids, provider slugs,
 * statuses — never keys, prompts or URLs.
 */
import cluster from 'node:cluster';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter as PromCounter, Gauge as PromGauge, type Histogram as PromHistogram, Registry } from 'prom-client';
import { BucketedHistogram } from './bucketed-histogram';
import { metricsSnapshot, WorkerMetricsChannel } from './cluster-metrics';
import { labelObject, seriesKey, type LabelObject, type Labels } from './metric-labels';

interface PendingIncrement {
  labels: LabelObject;
  by: number;
}

/**
 * A prom-client counter fed at scrape time: `inc` adds to this series' pending sum (a map lookup
 * and an add, as the hand-written counters did), and the counter's `collect` hands each sum to
 * prom-client before it renders. prom-client hashes a label object and allocates on every one of
 * its own updates; per request that was most of what the switch to it cost (docs/decisions/0014).
 */
export class Counter {
  private readonly pending = new Map<string, PendingIncrement>();

  constructor(
    name: string,
    help: string,
    private readonly labelNames: Labels,
    registry: Registry,
  ) {
    const pending = this.pending;
    new PromCounter({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        for (const increment of pending.values()) {
          if (increment.by === 0) continue;
          this.inc(increment.labels, increment.by);
          increment.by = 0;
        }
      },
    });
  }

  /** Adds `by` (counters never go down: zero, negative and non-numbers are ignored). */
  inc(labels: Labels = [], by = 1): void {
    if (!(by > 0) || by === Infinity) return;
    const key = seriesKey(labels);
    const increment = this.pending.get(key);
    if (increment) increment.by += by;
    else this.pending.set(key, { labels: labelObject(this.labelNames, labels), by });
  }
}

/** Histograms are counted here and rendered by the registry: see BucketedHistogram. */
export type Histogram = BucketedHistogram;

/**
 * How a gauge's values from several workers of one replica combine (cluster-metrics.ts): `sum`
 * for amounts (rows pending, failures), `max` for states, where the worst worker is the news.
 */
export type GaugeAggregation = 'sum' | 'max';

export interface GaugeSample {
  labels?: Record<string, string>;
  value: number;
}

const LOOP_WINDOW_MS = 60_000;

/** Seconds; from a fast cache-hit answer to a long generation. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

@Injectable()
export class MetricsService {
  private readonly registry = new Registry();
  private readonly metrics = new Map<string, Counter | Histogram>();

  /**
   * Event-loop delay, sampled every 20 ms and reported per fixed minute, whoever scrapes.
   * prom-client's `nodejs_eventloop_lag_*` gauges cover the time since the last scrape instead
   * (two scrapers of an HA pair each see half of it); this one is the same for every scraper.
   */
  private readonly loopDelay = monitorEventLoopDelay({ resolution: 20 });
  private lastLoopWindow: GaugeSample[] = [];
  private readonly loopWindowTimer: NodeJS.Timeout;
  /** In a node:cluster worker (WORKERS > 1): the way to the replica's figures, which the primary merges. */
  private readonly replica = cluster.isWorker ? new WorkerMetricsChannel(() => metricsSnapshot(this.registry)) : undefined;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    this.loopDelay.enable();
    this.loopWindowTimer = setInterval(() => this.closeLoopWindow(), LOOP_WINDOW_MS);
    this.loopWindowTimer.unref();
    this.gauge(
      'nodejs_eventloop_delay_seconds',
      'Event-loop delay over the last full minute: how long ready work waited (p50, p99, max).',
      () => this.lastLoopWindow,
      ['quantile'],
      'max',
    );
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
    this.replica?.close();
  }

  /** Registering a name twice returns the first counter, so modules may share one. */
  counter(name: string, help: string, labelNames: Labels = []): Counter {
    const existing = this.metrics.get(name);
    if (existing instanceof Counter) return existing;
    const counter = new Counter(name, help, labelNames, this.registry);
    this.metrics.set(name, counter);
    return counter;
  }

  histogram(name: string, help: string, labelNames: Labels, buckets: readonly number[] = LATENCY_BUCKETS): Histogram {
    const existing = this.metrics.get(name);
    if (existing instanceof BucketedHistogram) return existing;
    const histogram = new BucketedHistogram(name, help, labelNames, buckets);
    // The registry renders any metric through its `get()`; its type names only its own classes.
    this.registry.registerMetric(histogram as unknown as PromHistogram<string>);
    this.metrics.set(name, histogram);
    return histogram;
  }

  /** A value read at scrape time (a second reader under the same name replaces the first). */
  gauge(name: string, help: string, read: () => GaugeSample[], labelNames: Labels = [], aggregator: GaugeAggregation = 'sum'): void {
    this.registry.removeSingleMetric(name);
    new PromGauge({
      name,
      help,
      labelNames,
      aggregator,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const sample of read()) {
          if (sample.labels) this.set(sample.labels, sample.value);
          else this.set(sample.value);
        }
      },
    });
  }

  /**
   * The exposition text (format 0.0.4): this process's metrics, or in a cluster worker the
   * replica's, merged over its workers by the primary. A metric whose reader fails is left out of
   * this scrape, not the whole page.
   */
  async render(): Promise<string> {
    if (this.replica) return this.replica.replicaText();
    const names = this.registry.getMetricsAsArray().map((metric) => metric.name);
    const texts = await Promise.all(names.map((name) => this.registry.getSingleMetricAsString(name).catch(() => '')));
    return `${texts.filter((text) => text !== '').join('\n\n')}\n`;
  }

  /** The content type of `render()`'s text. */
  get contentType(): string {
    return this.registry.contentType;
  }
}
