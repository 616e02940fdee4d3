import type { Worker } from 'node:cluster';
import { Counter, Gauge, Registry } from 'prom-client';
import { metricsSnapshot, PrimaryMetricsAggregator } from './cluster-metrics';

/** A worker process as the primary sees it, answering collections from its own registry. */
function fakeWorker(registry: Registry, primary: PrimaryMetricsAggregator, inbox: unknown[], answers = true): Worker {
  const worker = {
    isConnected: () => true,
    send: (message: { rosetta: string; id: number }) => {
      inbox.push(message);
      if (message.rosetta === 'metrics-collect' && answers) {
        void metricsSnapshot(registry).then((metrics) => primary.handle(worker, { rosetta: 'metrics-snapshot', id: message.id, metrics }));
      }
      return true;
    },
  } as unknown as Worker;
  return worker;
}

function workerRegistry(requests: number, circuit: number): Registry {
  const registry = new Registry();
  new Counter({ name: 'rosetta_requests_total', help: 'requests', labelNames: ['status'], registers: [registry] }).inc({ status: '200' }, requests);
  new Gauge({ name: 'rosetta_circuit_state', help: 'circuit', labelNames: ['endpoint'], registers: [registry], aggregator: 'max' }).set({ endpoint: 'openai/gpt' }, circuit);
  new Gauge({ name: 'process_max_fds', help: 'limit', registers: [registry] }).set(1024);
  new Gauge({
    name: 'broken_reader',
    help: 'fails',
    registers: [registry],
    collect() {
      throw new Error('reader failed');
    },
  });
  return registry;
}

async function scrape(primary: PrimaryMetricsAggregator, asking: Worker, inbox: unknown[]): Promise<unknown> {
  primary.handle(asking, { rosetta: 'metrics-request', id: 7 });
  return replyIn(inbox);
}

async function replyIn(inbox: unknown[]): Promise<unknown> {
  for (;;) {
    const reply = inbox.find((m) => (m as { rosetta: string }).rosetta === 'metrics-text');
    if (reply) return reply;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('PrimaryMetricsAggregator', () => {
  it('sums counters over the ready workers, takes the worst state, keeps per-process limits, drops failing readers', async () => {
    const inboxes: unknown[][] = [[], []];
    const workers: Worker[] = [];
    const primary = new PrimaryMetricsAggregator(() => workers);
    workers.push(fakeWorker(workerRegistry(3, 0), primary, inboxes[0]!), fakeWorker(workerRegistry(4, 2), primary, inboxes[1]!));

    const reply = (await scrape(primary, workers[0]!, inboxes[0]!)) as { id: number; text: string };

    expect(reply.id).toBe(7);
    expect(reply.text).toContain('rosetta_requests_total{status="200"} 7');
    expect(reply.text).toContain('rosetta_circuit_state{endpoint="openai/gpt"} 2');
    expect(reply.text).toContain('process_max_fds 1024');
    expect(reply.text).not.toContain('broken_reader');
  });

  it('does not wait for a worker that exits during a collection', async () => {
    const inboxes: unknown[][] = [[], []];
    const workers: Worker[] = [];
    const primary = new PrimaryMetricsAggregator(() => workers);
    const silent = fakeWorker(workerRegistry(5, 0), primary, inboxes[1]!, false);
    workers.push(fakeWorker(workerRegistry(3, 0), primary, inboxes[0]!), silent);
    primary.handle(workers[0]!, { rosetta: 'metrics-request', id: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(inboxes[0]!.some((m) => (m as { rosetta: string }).rosetta === 'metrics-text')).toBe(false);

    primary.forget(silent);

    const reply = (await replyIn(inboxes[0]!)) as { text: string };
    expect(reply.text).toContain('rosetta_requests_total{status="200"} 3');
  });
});
