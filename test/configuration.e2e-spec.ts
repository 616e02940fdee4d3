import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase } from './support/services';

/**
 * Configuration that says what it did (issue 27): a providers file adds providers beside the
 * bundled simulator, as the admin API does; the start log says which models are served by what
 * and what to set for the rest; a model nobody serves is refused as configuration, naming it.
 */
describe('configuration that says what it did', () => {
  let sim: RunningSimulator;
  let dir: string;
  const started: Array<{ gateway: GatewayProcess; db: { drop(): Promise<void> } }> = [];

  beforeAll(async () => {
    sim = await startSimulator();
    dir = mkdtempSync(join(tmpdir(), 'rosetta-configuration-'));
  });

  afterAll(async () => {
    for (const { gateway, db } of started) {
      await gateway.stop();
      await db.drop();
    }
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function gatewayWith(env: Record<string, string>): Promise<{ gateway: GatewayProcess; key: string }> {
    const db = await createTestDatabase();
    const gateway = await startGateway({ DATABASE_URL: db.url, ...env });
    started.push({ gateway, db });
    return { gateway, key: (await createKey(gateway, 'enterprise')).key };
  }

  const chat = (gateway: GatewayProcess, key: string, model: string) =>
    fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });

  /** The start log's line on what serves each model. */
  function summary(gateway: GatewayProcess): { served: Record<string, string>; unserved: Record<string, string> } {
    const line = gateway.output().split('\n').find((l) => l.includes('"msg":"registry: what serves each model"'));
    expect(line).toBeDefined();
    return JSON.parse(line!);
  }

  it('a providers file keeps the simulator for the catalog models, and the start log says what serves what', async () => {
    const file = join(dir, 'providers.json');
    writeFileSync(
      file,
      JSON.stringify({
        providers: [
          {
            slug: 'local-vllm',
            protocol: 'openai',
            base_url: `${sim.url}/v1`,
            api_key_env: 'LOCAL_VLLM_KEY',
            endpoints: [{ model: 'rosetta/qwen-local', upstream_model: 'qwen-local', context_length: 32000, max_completion_tokens: 4000, pricing: { prompt: '0.0000001', completion: '0.0000002' } }],
          },
        ],
      }),
    );
    const { gateway, key } = await gatewayWith({ SIMULATOR_URL: sim.url, PROVIDERS_FILE: file, LOCAL_VLLM_KEY: 'local-key-000000' });
    expect((await chat(gateway, key, 'rosetta/gpt-4o-mini')).status).toBe(200);
    expect((await chat(gateway, key, 'rosetta/qwen-local')).status).toBe(200);
    const { served, unserved } = summary(gateway);
    expect(served).toMatchObject({ 'rosetta/gpt-4o-mini': 'openai', 'rosetta/claude-haiku-4-5': 'anthropic', 'rosetta/qwen-local': 'local-vllm' });
    // Bedrock sells it too: the start log names every way to serve it.
    expect(unserved['rosetta/llama-3.3-70b']).toBe("set GROQ_API_KEY (provider 'groq'); set TOGETHER_API_KEY (provider 'together'); set BEDROCK_REGION (provider 'bedrock')");
  });

  it('refuses a model nobody serves as configuration, naming what to set, and tells SDKs not to retry', async () => {
    const { gateway, key } = await gatewayWith({ OPENAI_BASE_URL: `${sim.url}/v1`, OPENAI_API_KEY: 'sk-operator-000000000000' });
    expect((await chat(gateway, key, 'rosetta/gpt-4o-mini')).status).toBe(200);
    const refused = await chat(gateway, key, 'rosetta/claude-haiku-4-5');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('x-should-retry')).toBe('false');
    expect(((await refused.json()) as any).error).toMatchObject({
      type: 'configuration_error',
      message: "'rosetta/claude-haiku-4-5' is not served by this gateway: no provider that serves it is configured and enabled: set ANTHROPIC_API_KEY (provider 'anthropic'); set BEDROCK_REGION (provider 'bedrock'); set VERTEX_PROJECT (provider 'vertex-anthropic')",
    });
    expect(summary(gateway).unserved['rosetta/claude-haiku-4-5']).toBe("set ANTHROPIC_API_KEY (provider 'anthropic'); set BEDROCK_REGION (provider 'bedrock'); set VERTEX_PROJECT (provider 'vertex-anthropic')");
  });
});
