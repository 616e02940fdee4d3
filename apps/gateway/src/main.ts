import { ConfigError, createLogger, loadConfig, type RosettaConfig } from '@rosetta/platform';
import cluster from 'node:cluster';
import { announce, type Banner } from './banner';
import { GatewayCluster, type WorkerReady } from './gateway-cluster';
import { planWorkers } from './worker-plan';

function readConfig(): RosettaConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`rosetta: invalid configuration: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * One process serves (WORKERS=1, or forced to one: worker-plan.ts), or this is the primary of
 * WORKERS node:cluster workers, each of which serves (gateway-cluster.ts). The application is
 * loaded only where it serves: a primary that never does stays a fraction of a worker's memory.
 */
async function start(): Promise<void> {
  const config = readConfig();
  if (cluster.isWorker) {
    const { serve } = await import('./serve');
    const ready = (banner: Banner): void => void process.send?.({ rosetta: 'ready', banner } satisfies WorkerReady);
    return serve(config, createLogger(config.logLevel, cluster.worker?.id), ready);
  }
  const logger = createLogger(config.logLevel);
  const plan = planWorkers(config);
  if (plan.forcedBecause) logger.info({ workers: plan.count, requested: config.workers }, plan.forcedBecause);
  if (plan.count > 1) return new GatewayCluster(plan.count, logger).start();
  const { serve } = await import('./serve');
  return serve(config, logger, announce);
}

start().catch((error: unknown) => {
  process.stderr.write(`rosetta: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
