import { PrimaryMetricsAggregator, type AppLogger } from '@rosetta/platform';
import cluster, { type Worker } from 'node:cluster';
import { announce, type Banner } from './banner';
import { DUPLICATE_SIGNAL_MS } from './graceful-shutdown';
import { restartDelayMs } from './worker-plan';

/** What a worker sends the primary once both its ports listen. */
export interface WorkerReady {
  rosetta: 'ready';
  banner: Banner;
}

function isReady(message: unknown): message is WorkerReady {
  return typeof message === 'object' && message !== null && (message as { rosetta?: unknown }).rosetta === 'ready';
}

/**
 * The primary of a replica running WORKERS gateway processes (node:cluster): it serves no request
 * itself. It forks the workers, which share the replica's ports (the data plane's and ADMIN_PORT)
 * and all other state through PostgreSQL and Redis, exactly as replicas do; migrations serialise
 * on their advisory lock and the generated admin token is stored once (setIfAbsent), so workers
 * starting together race nothing. It prints the start banner once every worker is ready, merges
 * the workers' metrics for `/metrics`, replaces a worker that dies (after a back-off), and on
 * SIGTERM/SIGINT passes the signal on and exits once every worker has drained and exited.
 */
export class GatewayCluster {
  private readonly live = new Set<Worker>();
  private readonly ready = new Map<number, Worker>();
  private readonly metrics = new PrimaryMetricsAggregator(() => [...this.ready.values()]);
  private readonly banners: Banner[] = [];
  private announced = false;
  private crashesInARow = 0;
  private restartTimer?: NodeJS.Timeout;
  private stoppingSince?: number;
  /** Set when a worker failed before any was ready: the replica stops, as one process would. */
  private failedToStart = false;
  private exitCode = 0;

  constructor(
    private readonly count: number,
    private readonly logger: AppLogger,
  ) {}

  start(): void {
    cluster.on('message', (worker, message) => this.onMessage(worker, message));
    cluster.on('exit', (worker, code, signal) => this.onExit(worker, code, signal));
    process.on('SIGTERM', (signal) => this.stop(signal));
    process.on('SIGINT', (signal) => this.stop(signal));
    this.logger.info({ workers: this.count }, 'starting workers');
    for (let i = 0; i < this.count; i++) this.fork();
  }

  private fork(): void {
    this.live.add(cluster.fork());
  }

  private onMessage(worker: Worker, message: unknown): void {
    if (this.metrics.handle(worker, message) || !isReady(message)) return;
    this.ready.set(worker.id, worker);
    this.crashesInARow = 0;
    if (this.announced) return this.logger.info({ worker: worker.id }, 'replacement worker ready');
    this.banners.push(message.banner);
    if (this.ready.size < this.count) return;
    this.announced = true;
    this.logger.info({ workers: this.count }, 'all workers ready');
    // One banner for the replica; the generated token (first start only) came from whichever worker stored it.
    announce({ ...this.banners[0]!, generatedToken: this.banners.find((banner) => banner.generatedToken)?.generatedToken });
  }

  private onExit(worker: Worker, code: number | null, signal: string | null): void {
    const served = this.ready.delete(worker.id);
    this.live.delete(worker);
    this.metrics.forget(worker);
    if (this.stoppingSince !== undefined || this.failedToStart) {
      // A worker still starting when the stop came had nothing to drain: the signal ends it, cleanly.
      if (code !== 0 && (served || signal === null)) this.exitCode = 1;
      if (this.live.size === 0) this.exit();
      return;
    }
    if (!this.announced && this.ready.size === 0 && this.banners.length === 0) {
      this.failedToStart = true;
      this.exitCode = 1;
      this.logger.error({ worker: worker.id, code, signal }, 'a worker failed to start; stopping the others');
      for (const other of this.live) other.process.kill('SIGTERM');
      if (this.live.size === 0) this.exit();
      return;
    }
    this.crashesInARow++;
    const delayMs = restartDelayMs(this.crashesInARow);
    this.logger.error({ worker: worker.id, code, signal, restartInMs: delayMs }, 'worker exited unexpectedly; replacing it');
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.stoppingSince === undefined) this.fork();
    }, delayMs);
  }

  /**
   * Passes the stop request on to every worker; each drains its open requests and writes its
   * ledger rows (graceful-shutdown.ts). A second request, later than a duplicate, is passed on
   * too: the workers end their open streams but still write the ledger.
   */
  private stop(signal: NodeJS.Signals): void {
    if (this.stoppingSince !== undefined) {
      if (Date.now() - this.stoppingSince < DUPLICATE_SIGNAL_MS) return;
      this.logger.warn({ signal }, 'second signal: passing it on to the workers');
    } else {
      this.stoppingSince = Date.now();
      clearTimeout(this.restartTimer);
      this.logger.info({ signal, workers: this.live.size }, 'shutting down: stopping the workers');
    }
    for (const worker of this.live) worker.process.kill(signal);
    if (this.live.size === 0) this.exit();
  }

  private exit(): void {
    this.logger.info({ exitCode: this.exitCode }, 'all workers stopped');
    this.logger.flush();
    setImmediate(() => process.exit(this.exitCode));
  }
}
