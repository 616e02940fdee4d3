import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentHome, codexHome, execTask, runClaudeCode, runCodex, runGeminiCli, writeFileTask, type AgentTarget } from './support/agent-clis';
import { CLOUD_MODELS, startCloudStack, type CloudStack } from './support/cloud-stack';

/**
 * The agent CLIs against the clouds (issue 28): Claude Code, Gemini CLI and Codex CLI each
 * complete a tool-using task with a model served by Bedrock (Converse, SigV4), Vertex AI (Gemini,
 * a metadata-server token) and Azure OpenAI (a deployment, an api-key), configured exactly as
 * against the public APIs. The simulator, told by a directive in the prompt, calls the agent's
 * tool; the agent runs it and the result reaches the cloud in its own wire format.
 */
const CLOUDS = [
  ['Bedrock', 'bedrock-converse', CLOUD_MODELS.bedrockConverse.model],
  ['Vertex AI', 'vertex-gemini', CLOUD_MODELS.vertexGemini.model],
  ['Azure OpenAI', 'azure-openai', CLOUD_MODELS.azureChat.model],
] as const;

describe('agentic coding tools against cloud upstreams', () => {
  let stack: CloudStack;
  let target: AgentTarget;
  let home: string;

  beforeAll(async () => {
    stack = await startCloudStack();
    home = agentHome();
    target = { gatewayUrl: stack.gateway.url, key: stack.key, home };
  });

  afterAll(async () => {
    await stack?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  /** The follow-up turn carrying the tool's result reached the cloud in its own wire format. */
  const resultReached = (protocol: string, content: string, result: string) =>
    stack.sim.requests().some((r) => r.protocol === protocol && JSON.stringify(r.body).includes(content.trim()) && JSON.stringify(r.body).includes(result));

  const workdir = () => mkdtempSync(join(tmpdir(), 'rosetta-cloud-agent-'));

  // Claude through Bedrock's invoke too: Claude Code's beta flags reduced to those Bedrock knows.
  it.each([...CLOUDS, ['Bedrock invoke', 'bedrock-anthropic', CLOUD_MODELS.bedrockInvoke.model]] as const)('Claude Code writes a file through %s', async (_cloud, protocol, model) => {
    const dir = workdir();
    const content = `written by claude code via ${model}\n`;
    const { stdout } = await runClaudeCode(target, model, dir, writeFileTask(dir, 'Write', content));
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe(content);
    expect(stdout).toContain('Tool results received: File created successfully');
    expect(resultReached(protocol, content, 'File created successfully')).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(CLOUDS)('Gemini CLI writes a file through %s', async (_cloud, protocol, model) => {
    const dir = workdir();
    const content = `written by gemini cli via ${model}\n`;
    const { stdout } = await runGeminiCli(target, model, dir, writeFileTask(dir, 'write_file', content));
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe(content);
    expect(stdout).toContain('Tool results received: Successfully created and wrote to new file');
    expect(resultReached(protocol, content, 'Successfully created and wrote to new file')).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(CLOUDS)('Codex CLI runs a command through %s', async (_cloud, protocol, model) => {
    const dir = workdir();
    const content = `written by codex via ${model}`;
    const { stdout } = await runCodex(target, model, dir, execTask(`printf '%s\\n' '${content}' > ${join(dir, 'hello.txt')}`), codexHome(target, '.codex'));
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe(`${content}\n`);
    expect(stdout).toContain('Tool results received:');
    expect(resultReached(protocol, content, 'Process exited with code 0')).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });
});
