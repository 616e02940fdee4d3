import { startGateway, type GatewayProcess } from './gateway-process';
import { freePort } from './redis-servers';

/**
 * N gateway replicas on one configuration, each on a port of its own that it keeps across a
 * restart, so an ingress configured once with those ports finds a killed replica again when it
 * comes back. One process per replica (WORKERS=1): a SIGKILL then loses exactly that replica.
 */
export interface GatewayReplicas {
  ports: readonly number[];
  /** The process serving slot `index` now. */
  at(index: number): GatewayProcess;
  /** SIGKILL, as a lost node: no drain, no ledger flush; resolves once the process is gone. */
  kill(index: number): Promise<void>;
  /** Starts slot `index` again on its port; resolves once it listens. */
  restart(index: number): Promise<GatewayProcess>;
  stop(): Promise<void>;
}

export async function startReplicas(count: number, env: Record<string, string>): Promise<GatewayReplicas> {
  const taken = new Set<number>();
  const ports: number[] = [];
  for (let i = 0; i < count; i++) ports.push(await freePort(taken));
  const start = (port: number): Promise<GatewayProcess> => startGateway({ WORKERS: '1', ...env, PORT: String(port) });
  const started = await Promise.allSettled(ports.map(start));
  const running = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    // One replica that did not start must not leave the others running.
    await Promise.all(running.map((g) => g.stop()));
    throw failed.reason;
  }
  const slots = [...running];
  const slot = (index: number): GatewayProcess => {
    const gateway = slots[index];
    if (!gateway) throw new Error(`no replica ${index} (of ${count})`);
    return gateway;
  };
  return {
    ports,
    at: slot,
    kill: async (index) => {
      await slot(index).stop('SIGKILL');
    },
    restart: async (index) => {
      slot(index);
      slots[index] = await start(ports[index]!);
      return slots[index]!;
    },
    stop: async () => {
      // A killed replica that was not restarted has no exit left to wait for.
      await Promise.all(slots.filter((g) => g.process.exitCode === null && g.process.signalCode === null).map((g) => g.stop()));
    },
  };
}
