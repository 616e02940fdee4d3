/**
 * The README and the operator's first-hour guide, run as printed (issue 27): the key-creation line
 * of the quick start, every block of "First calls" (curl and the official SDKs, in each dialect),
 * and every shell block of docs/guide/first-hour.md in one shell session, as a newcomer types
 * them. The only change made to what is printed is the address: the gateway listens on a free port
 * instead of 8080, and the guide's stand-in model server on another instead of Ollama's 11434.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { startGateway, TEST_ADMIN_TOKEN, type GatewayProcess } from './support/gateway-process';
import { codeBlocks, ShellSession, type CodeBlock } from './support/markdown-blocks';
import { createTestDatabase, query } from './support/services';

const ROOT = join(__dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const FIRST_HOUR = readFileSync(join(ROOT, 'docs/guide/first-hour.md'), 'utf8');
const SNIPPETS = join(ROOT, 'test-output', 'readme');

/** The four dialects, by the bold lead the README gives each, and what a good answer holds. */
const DIALECTS: Array<{ lead: string; answer(body: any): unknown }> = [
  { lead: 'OpenAI chat completions', answer: (b) => b.choices?.[0]?.message?.content },
  { lead: 'Anthropic messages', answer: (b) => b.content?.[0]?.text },
  { lead: 'Gemini generateContent', answer: (b) => b.candidates?.[0]?.content?.parts?.[0]?.text },
  { lead: 'OpenAI Responses API', answer: (b) => b.output?.find((item: any) => item.type === 'message')?.content?.[0]?.text },
];

function run(command: string, args: string[], env: Record<string, string | undefined>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as NodeJS.ErrnoException).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('the README and the first-hour guide, run as printed', () => {
  let sim: RunningSimulator;
  let local: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let gateway: GatewayProcess;
  let baseEnv: Record<string, string | undefined>;
  let rosettaKey: string;
  /** What is printed, at the addresses this test's processes have. */
  let here: (text: string) => string;

  beforeAll(async () => {
    sim = await startSimulator();
    local = await startSimulator({ keyless: true }); // SIM_KEYLESS=true, as the guide starts it
    db = await createTestDatabase();
    // As `npm start` runs with no provider account: the simulator serves every built-in model.
    gateway = await startGateway({ DATABASE_URL: db.url, SIMULATOR_URL: sim.url });
    const gatewayHost = new URL(gateway.url).host;
    const localHost = new URL(local.url).host;
    here = (text) => text.replaceAll('127.0.0.1:8080', gatewayHost).replaceAll('127.0.0.1:11434', localHost);
    baseEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'], ROSETTA_URL: gateway.url, ADMIN_TOKEN: TEST_ADMIN_TOKEN };
    mkdirSync(SNIPPETS, { recursive: true });
  });

  afterAll(async () => {
    rmSync(join(ROOT, 'local.yaml'), { force: true });
    await gateway?.stop();
    await sim?.close();
    await local?.close();
    await db?.drop();
  });

  it('quick start: the key-creation line prints a key', async () => {
    const line = README.split('\n').find((l) => l.startsWith('npm run admin -- keys create'));
    expect(line).toBe('npm run admin -- keys create --plan pro --name me');
    const result = await run('bash', ['-c', line!], baseEnv);
    expect(result.code).toBe(0);
    const created = JSON.parse(result.stdout.slice(result.stdout.indexOf('{')));
    expect(created).toMatchObject({ name: 'me', plan: 'pro', key: expect.stringMatching(/^rsk_/) });
    rosettaKey = created.key;
  });

  describe('first calls', () => {
    const blocks = codeBlocks(README).filter((b) => b.section === 'First calls');

    it('show curl and an official SDK for every dialect', () => {
      for (const { lead } of DIALECTS) {
        expect({ lead, kinds: blocks.filter((b) => b.lead === lead).map((b) => b.lang).sort() }).toEqual({ lead, kinds: ['bash', 'js'] });
      }
    });

    const curls = blocks.filter((b) => b.lang === 'bash' && DIALECTS.some((d) => d.lead === b.lead));
    it.each(curls.map((b) => [b.lead, b] as [string, CodeBlock]))('curl, %s: an answer in the dialect', async (lead, block) => {
      const result = await run('bash', ['-c', here(block.code)], { ...baseEnv, ROSETTA_KEY: rosettaKey });
      expect(result.code).toBe(0); // (curl's progress meter is on stderr)
      const body = JSON.parse(result.stdout);
      expect(body.error ?? null).toBeNull();
      expect(typeof DIALECTS.find((d) => d.lead === lead)!.answer(body)).toBe('string');
    });

    const sdks = blocks.filter((b) => b.lang === 'js');
    it.each(sdks.map((b) => [b.lead, b] as [string, CodeBlock]))('official SDK, %s: runs to the end', async (lead, block) => {
      const file = join(SNIPPETS, `${lead.replace(/\W+/g, '-').toLowerCase()}.mjs`);
      writeFileSync(file, here(block.code));
      const result = await run(process.execPath, [file], { ...baseEnv, ROSETTA_KEY: rosettaKey });
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      // Every call of the snippet printed an answer: one line each for the plain call and the stream.
      expect(result.stdout.split('\n').filter((l) => l.trim() !== '').length).toBeGreaterThanOrEqual(2);
    });
  });

  it('the first-hour guide: a second upstream, a team budget and an allow-list, block by block', async () => {
    const blocks = codeBlocks(FIRST_HOUR).filter((b) => b.lang === 'bash');
    expect(blocks.map((b) => b.section)).toEqual(['1. A second upstream', '1. A second upstream', '2. A team with a budget', '3. A key for the team, limited to two models', '3. A key for the team, limited to two models', '3. A key for the team, limited to two models', '4. What it cost']);
    const shell = new ShellSession(ROOT, { ...baseEnv, ROSETTA_KEY: rosettaKey });
    try {
      const outputs: string[] = [];
      for (const [index, block] of blocks.entries()) {
        if (block.section === '4. What it cost') await ledgerHoldsServedRequestOf('alice');
        const result = await shell.run(here(block.code));
        expect({ block: block.line, status: result.status }).toEqual({ block: block.line, status: 0 });
        outputs[index] = result.stdout;
      }
      const [provider, localCall, team, allowed, refused, key, cost] = outputs as [string, string, string, string, string, string, string];
      expect(provider).toContain('"slug": "local"');
      expect(JSON.parse(localCall)).toMatchObject({ model: 'rosetta/llama-3.1-8b', choices: [{ message: { role: 'assistant' } }] });
      // Ollama takes no key: the guide gives none, and the gateway sends none.
      const toLocal = local.requests().filter((r) => (r.body as any)?.model === 'llama3.1:8b');
      expect(toLocal.map((r) => r.headers['authorization'] ?? null)).toEqual([null]);
      expect(team).toMatch(/^team [0-9a-f-]{36}\n$/);
      expect(JSON.parse(allowed)).toMatchObject({ model: 'rosetta/gpt-4o-mini' });
      expect(JSON.parse(refused)).toMatchObject({ error: { type: 'permission_error', message: expect.stringContaining('rosetta/claude-sonnet-4-5') } });
      expect(JSON.parse(key)).toMatchObject({ models: ['rosetta/llama-3.1-8b', 'rosetta/gpt-4o-mini'], team: { name: 'research' } });
      expect(cost).toContain('"team_name": "research"');
      expect(cost).toContain('"served_model": "rosetta/gpt-4o-mini"');
    } finally {
      shell.close();
    }
  });

  /** Waits until the ledger holds a served request of the named key (rows are written within a second). */
  async function ledgerHoldsServedRequestOf(name: string): Promise<void> {
    for (;;) {
      const [row] = await query<{ n: string }>(db.url, 'SELECT count(*) AS n FROM request_log r JOIN api_keys k ON k.id = r.api_key_id WHERE k.name = $1 AND r.served_model IS NOT NULL', [name]);
      if (Number(row!.n) >= 1) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
});
