import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const BIN = join(__dirname, '..', '..', 'node_modules', '.bin');
const TIMEOUT_MS = 120_000;

/**
 * The agent CLIs as the README configures them against the gateway: Claude Code (Anthropic
 * dialect), Gemini CLI (Gemini dialect), Codex CLI (Responses, a custom model provider). Each run
 * is a real process with its own HOME, so nothing of the machine's own configuration is read.
 */
export interface AgentTarget {
  gatewayUrl: string;
  key: string;
  /** The HOME every CLI runs with (see agentHome). */
  home: string;
}

/** A HOME for the CLIs: Gemini CLI on API-key auth, no folder-trust prompt, no telemetry. */
export function agentHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'rosetta-agents-'));
  mkdirSync(join(home, '.gemini'));
  writeFileSync(
    join(home, '.gemini', 'settings.json'),
    JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } }, privacy: { usageStatisticsEnabled: false } }),
  );
  return home;
}

/** A prompt whose <sim> directive makes the simulator call the agent's file-writing tool. */
export function writeFileTask(dir: string, tool: string, content: string, file = 'hello.txt'): string {
  return `Create the file ${file} <sim>${JSON.stringify({ toolCalls: [{ name: tool, arguments: { file_path: join(dir, file), content } }] })}</sim>`;
}

/** A prompt whose <sim> directive makes the simulator ask Codex to run a shell command. */
export function execTask(command: string): string {
  return `Create the file hello.txt <sim>${JSON.stringify({ toolCalls: [{ name: 'exec_command', arguments: { cmd: command } }] })}</sim>`;
}

export function claudeCodeEnv(target: AgentTarget, model: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'],
    HOME: target.home,
    ANTHROPIC_BASE_URL: target.gatewayUrl,
    ANTHROPIC_API_KEY: target.key,
    ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
}

export function runClaudeCode(target: AgentTarget, model: string, dir: string, prompt: string, extra: string[] = []): Promise<{ stdout: string }> {
  return run(join(BIN, 'claude'), ['-p', prompt, '--model', model, '--permission-mode', 'acceptEdits', '--allowedTools', 'Write', ...extra], { cwd: dir, timeout: TIMEOUT_MS, env: claudeCodeEnv(target, model) });
}

export function runGeminiCli(target: AgentTarget, model: string, dir: string, prompt: string): Promise<{ stdout: string }> {
  return run(join(BIN, 'gemini'), ['-m', model, '--yolo', '-p', prompt], {
    cwd: dir,
    timeout: TIMEOUT_MS,
    env: { PATH: process.env['PATH'], HOME: target.home, GOOGLE_GEMINI_BASE_URL: target.gatewayUrl, GEMINI_API_KEY: target.key, NO_COLOR: '1' },
  });
}

/** Codex's configuration: a custom model provider on the gateway, wire_api "responses"; `extra` lines go first. */
export function codexHome(target: AgentTarget, name: string, extra: string[] = []): string {
  const dir = join(target.home, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'config.toml'),
    [...extra, 'model_provider = "rosetta"', '', '[model_providers.rosetta]', 'name = "Rosetta"', `base_url = "${target.gatewayUrl}/v1"`, 'env_key = "ROSETTA_KEY"', 'wire_api = "responses"', ''].join('\n'),
  );
  return dir;
}

export async function runCodex(target: AgentTarget, model: string, dir: string, prompt: string, home: string): Promise<{ stdout: string }> {
  const codex = run(join(BIN, 'codex'), ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '-m', model, prompt], {
    cwd: dir,
    timeout: TIMEOUT_MS,
    env: { PATH: process.env['PATH'], HOME: target.home, CODEX_HOME: home, ROSETTA_KEY: target.key, NO_COLOR: '1' },
  });
  // `codex exec` reads more of the prompt from a piped stdin until it closes.
  codex.child.stdin?.end();
  return codex;
}
