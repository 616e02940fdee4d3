import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulatedEmbedding, startSimulator, type RunningSimulator } from '../../apps/simulator/src';
import { estimateEmbeddingTokens } from '../../libs/limits/src/token-estimator';
import { adminCall, createKey, startGateway, type GatewayProcess } from './gateway-process';
import { createTestDatabase } from './services';

export const TE3 = 'rosetta/text-embedding-3-small';
export const GEM = 'rosetta/gemini-embedding-001';
/** USD per input token, the catalog's. */
export const PRICE = { [TE3]: 0.02e-6, [GEM]: 0.15e-6 };

/**
 * The embeddings suites' stack: a simulator, a fresh database, and a gateway where each catalog
 * embedding model is served over its own protocol (the built-in `openai` and `gemini` providers)
 * and over the other one (`gemini-mirror`, `openai-mirror`, from a PROVIDERS_FILE), plus an
 * enterprise key.
 */
export interface EmbeddingsStack {
  sim: RunningSimulator;
  db: { url: string; drop(): Promise<void> };
  gateway: GatewayProcess;
  key: string;
  /** A scratch directory for providers files, removed by `stop`. */
  dir: string;
  stop(): Promise<void>;
}

export async function startEmbeddingsStack(): Promise<EmbeddingsStack> {
  const sim = await startSimulator();
  const db = await createTestDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'rosetta-embeddings-'));
  const providers = join(dir, 'providers.yaml');
  writeFileSync(
    providers,
    `providers:
  - slug: gemini-mirror
    protocol: gemini
    base_url: ${sim.url}
    api_key_env: MIRROR_KEY
    endpoints:
      - { model: ${TE3}, kind: embedding, upstream_model: text-embedding-3-small, context_length: 8191, dimensions: 1536, custom_dimensions: true, pricing: { prompt: "0.00000002", completion: "0" } }
  - slug: openai-mirror
    protocol: openai
    base_url: ${sim.url}/v1
    api_key_env: MIRROR_KEY
    endpoints:
      - { model: ${GEM}, upstream_model: gemini-embedding-001, context_length: 2048, dimensions: 3072, custom_dimensions: true, pricing: { prompt: "0.00000015", completion: "0" } }
`,
  );
  const stopAll = async (gateway?: GatewayProcess): Promise<void> => {
    await gateway?.stop();
    await sim.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  let gateway: GatewayProcess | undefined;
  try {
    gateway = await startGateway({
      DATABASE_URL: db.url,
      PROVIDERS_FILE: providers,
      MIRROR_KEY: 'mirror-operator-key-000',
      OPENAI_BASE_URL: `${sim.url}/v1`,
      OPENAI_API_KEY: 'sk-openai-operator-000000',
      GEMINI_BASE_URL: sim.url,
      GEMINI_API_KEY: 'gemini-operator-000000',
      ANTHROPIC_BASE_URL: sim.url,
      ANTHROPIC_API_KEY: 'sk-ant-operator-000000',
    });
    const { key } = await createKey(gateway, 'enterprise');
    const started = gateway;
    return { sim, db, gateway, key, dir, stop: () => stopAll(started) };
  } catch (error) {
    await stopAll(gateway);
    throw error;
  }
}

/** The simulator's vector for an OpenAI-protocol call to text-embedding-3-small. */
export const openaiVector = (input: string, dimensions?: number): number[] => simulatedEmbedding({ model: 'text-embedding-3-small', input, dimensions, flavour: 'openai' });

/** The simulator's vector for a Gemini-protocol call. */
export const geminiVector = (model: string, input: string, extra: { dimensions?: number; taskType?: string; title?: string } = {}): number[] =>
  simulatedEmbedding({ model, input, flavour: 'gemini', ...extra });

/** The gateway's own input-token estimate: what a Gemini upstream's answer is charged. */
export const estimated = (...texts: string[]): number => estimateEmbeddingTokens(texts.map((text) => ({ type: 'text' as const, text }))).total;

/** A request's ledger row, by the gateway's x-request-id (the admin lookup waits for the batch). */
export async function ledger(gateway: GatewayProcess, requestId: string | null): Promise<any> {
  return (await adminCall(gateway, 'GET', `/admin/requests/${requestId}`)).body;
}
