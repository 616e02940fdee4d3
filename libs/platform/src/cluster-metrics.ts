/**
 * One replica's metrics across its node:cluster workers (WORKERS). The worker that serves
 * `GET /metrics` asks the primary; the primary asks every ready worker for its metrics as JSON and
 * merges them with prom-client's AggregatorRegistry.aggregate, each metric by its `aggregator`:
 * counters, histograms and most gauges are summed; a gauge of a state (a circuit, degraded mode)
 * takes the worst worker's value (`max`); prom-client's own process metrics keep the aggregators
 * prom-client gives them. The exchange is Rosetta's own messages rather than prom-client's built-in
 * ones, so the primary asks only workers that have finished starting (a worker being replaced
 * would never answer) and a metric whose reader fails drops out of its worker's answer, not the scrape.
 */
import type { Worker } from 'node:cluster';
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue, type Registry } from 'prom-client';

type MetricJson = MetricObjectWithValues<MetricValue<string>>;

/** How long the primary waits for the workers' figures: a worker stuck longer is left out of that scrape. */
const COLLECT_TIMEOUT_MS = 5_000;

type WorkerToPrimary = { rosetta: 'metrics-request'; id: number } | { rosetta: 'metrics-snapshot'; id: number; metrics: MetricJson[] };
type PrimaryToWorker = { rosetta: 'metrics-collect'; id: number } | { rosetta: 'metrics-text'; id: number; text?: string; error?: string };

function isMessage<T extends { rosetta: string }>(message: unknown, kind: T['rosetta']): message is T {
  return typeof message === 'object' && message !== null && (message as { rosetta?: unknown }).rosetta === kind;
}

/**
 * prom-client's process metrics that are a limit of each process, not an amount the replica
 * uses: summing them would double the limit.
 */
const PER_PROCESS_LIMITS: Record<string, MetricJson['aggregator']> = { process_max_fds: 'max' };

/** Every metric of `registry` as JSON, leaving out any whose reader fails. */
export async function metricsSnapshot(registry: Registry): Promise<MetricJson[]> {
  // Each registered metric reads itself through `get()`; the registry's type names only its fields.
  const readers = registry.getMetricsAsArray() as unknown as Array<{ get(): MetricJson | Promise<MetricJson> }>;
  const metrics = await Promise.all(readers.map((metric) => Promise.resolve().then(() => metric.get()).catch(() => undefined)));
  return metrics
    .filter((metric): metric is MetricJson => metric !== undefined)
    .map((metric) => (PER_PROCESS_LIMITS[metric.name] ? { ...metric, aggregator: PER_PROCESS_LIMITS[metric.name]! } : metric));
}

/** A worker's side: answers the primary's collections and asks it for the replica's text. */
export class WorkerMetricsChannel {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  private readonly listener = (message: unknown): void => this.onMessage(message);

  constructor(private readonly snapshot: () => Promise<MetricJson[]>) {
    process.on('message', this.listener);
  }

  /** The replica's metrics in the Prometheus text format, merged by the primary. */
  replicaText(): Promise<string> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.send({ rosetta: 'metrics-request', id });
    });
  }

  close(): void {
    process.off('message', this.listener);
  }

  private onMessage(message: unknown): void {
    if (isMessage<Extract<PrimaryToWorker, { rosetta: 'metrics-collect' }>>(message, 'metrics-collect')) {
      void this.snapshot().then((metrics) => this.send({ rosetta: 'metrics-snapshot', id: message.id, metrics }));
    } else if (isMessage<Extract<PrimaryToWorker, { rosetta: 'metrics-text' }>>(message, 'metrics-text')) {
      const waiting = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.error !== undefined) waiting?.reject(new Error(`metrics of the other workers: ${message.error}`));
      else waiting?.resolve(message.text ?? '');
    }
  }

  private send(message: WorkerToPrimary): void {
    process.send?.(message);
  }
}

interface Collection {
  snapshots: MetricJson[][];
  pending: Set<Worker>;
  finish: () => void;
}

/** The primary's side: merges the ready workers' metrics for the worker that asked. */
export class PrimaryMetricsAggregator {
  private nextId = 0;
  private readonly collections = new Map<number, Collection>();

  constructor(private readonly readyWorkers: () => Worker[]) {}

  /** Handles a message from `worker`; false when it is not about metrics. */
  handle(worker: Worker, message: unknown): boolean {
    if (isMessage<Extract<WorkerToPrimary, { rosetta: 'metrics-request' }>>(message, 'metrics-request')) {
      const reply = (answer: { text: string } | { error: string }): void => {
        if (worker.isConnected()) worker.send({ rosetta: 'metrics-text', id: message.id, ...answer } satisfies PrimaryToWorker);
      };
      this.replicaText().then(
        (text) => reply({ text }),
        (error: Error) => reply({ error: error.message }),
      );
      return true;
    }
    if (isMessage<Extract<WorkerToPrimary, { rosetta: 'metrics-snapshot' }>>(message, 'metrics-snapshot')) {
      const collection = this.collections.get(message.id);
      if (collection?.pending.delete(worker)) {
        collection.snapshots.push(message.metrics);
        if (collection.pending.size === 0) collection.finish();
      }
      return true;
    }
    return false;
  }

  /** A worker that exited answers no more collections. */
  forget(worker: Worker): void {
    for (const collection of this.collections.values()) {
      if (collection.pending.delete(worker) && collection.pending.size === 0) collection.finish();
    }
  }

  private replicaText(): Promise<string> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const workers = this.readyWorkers().filter((worker) => worker.isConnected());
      const collection: Collection = { snapshots: [], pending: new Set(workers), finish: () => undefined };
      const timer = setTimeout(() => collection.finish(), COLLECT_TIMEOUT_MS);
      collection.finish = () => {
        clearTimeout(timer);
        this.collections.delete(id);
        try {
          resolve(AggregatorRegistry.aggregate(collection.snapshots).metrics());
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      };
      this.collections.set(id, collection);
      for (const worker of workers) worker.send({ rosetta: 'metrics-collect', id } satisfies PrimaryToWorker);
      if (workers.length === 0) collection.finish();
    });
  }
}
