import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RunningSimulator } from '../apps/simulator/src';
import type { GatewayProcess } from './support/gateway-process';
import { startStack, type Stack } from './support/stack';

const run = promisify(execFile);
const BIN = join(__dirname, '..', 'node_modules', '.bin');
const MODELS = [
  ['anthropic', 'rosetta/claude-haiku-4-5'],
  ['openai', 'rosetta/gpt-4o-mini'],
  ['gemini', 'rosetta/gemini-2.5-flash'],
] as const;

/**
 * The agents themselves, configured as the README says, complete a tool-using task through the
 * gateway whichever protocol serves the model. The simulator is told (by a directive in the
 * prompt) to call the agent's file-writing tool; the agent runs it and sends the result back.
 */
describe('agentic coding tools through the gateway', () => {
  let sim: RunningSimulator;
  let gateway: GatewayProcess;
  let key: string;
  let home: string;

  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
    ({ sim, gateway, key } = stack);
    home = mkdtempSync(join(tmpdir(), 'rosetta-agents-'));
    mkdirSync(join(home, '.gemini'));
    // Gemini CLI: API-key auth, no folder-trust prompt, no telemetry (as the README describes).
    writeFileSync(
      join(home, '.gemini', 'settings.json'),
      JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } }, privacy: { usageStatisticsEnabled: false } }),
    );
  });

  afterAll(async () => {
    await stack?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  const task = (dir: string, tool: string, content: string) =>
    `Create the file hello.txt <sim>${JSON.stringify({ toolCalls: [{ name: tool, arguments: { file_path: join(dir, 'hello.txt'), content } }] })}</sim>`;

  /** The follow-up turn carrying the tool's result reached the upstream in its own protocol. */
  const resultReached = (protocol: string, content: string, result: string) =>
    sim.requests().some((r) => r.protocol === protocol && JSON.stringify(r.body).includes(content.trim()) && JSON.stringify(r.body).includes(result));

  it.each(MODELS)('Claude Code writes a file through a %s-protocol upstream', async (protocol, model) => {
    const dir = mkdtempSync(join(tmpdir(), 'rosetta-cc-'));
    const content = `written by claude code via ${model}\n`;
    const { stdout } = await run(join(BIN, 'claude'), ['-p', task(dir, 'Write', content), '--model', model, '--permission-mode', 'acceptEdits', '--allowedTools', 'Write'], {
      cwd: dir,
      timeout: 120_000,
      env: {
        PATH: process.env['PATH'],
        HOME: home,
        ANTHROPIC_BASE_URL: gateway.url,
        ANTHROPIC_API_KEY: key,
        ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
    });
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe(content);
    expect(stdout).toContain('Tool results received: File created successfully');
    expect(resultReached(protocol, content, 'File created successfully')).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(MODELS)('Gemini CLI writes a file through a %s-protocol upstream', async (protocol, model) => {
    const dir = mkdtempSync(join(tmpdir(), 'rosetta-gc-'));
    const content = `written by gemini cli via ${model}\n`;
    const { stdout } = await run(join(BIN, 'gemini'), ['-m', model, '--yolo', '-p', task(dir, 'write_file', content)], {
      cwd: dir,
      timeout: 120_000,
      env: { PATH: process.env['PATH'], HOME: home, GOOGLE_GEMINI_BASE_URL: gateway.url, GEMINI_API_KEY: key, NO_COLOR: '1' },
    });
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe(content);
    expect(stdout).toContain('Tool results received: Successfully created and wrote to new file');
    expect(resultReached(protocol, content, 'Successfully created and wrote to new file')).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });
});
