import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningSimulator } from '../apps/simulator/src';
import { agentHome, codexHome, execTask, runClaudeCode, runCodex, runGeminiCli, writeFileTask, type AgentTarget } from './support/agent-clis';
import { createKey, type GatewayProcess } from './support/gateway-process';
import { query } from './support/services';
import { addResponsesUpstream, RESPONSES_MODEL, startStack, type Stack } from './support/stack';
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
  let keyId: string;
  let home: string;

  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
    ({ sim, gateway } = stack);
    await addResponsesUpstream(gateway, sim.url);
    // A Pro key, as the README's quick start recommends for agent tools: their long prompts and
    // max_tokens 32,000 must not meet a 429.
    ({ key, id: keyId } = await createKey(gateway, 'pro'));
    home = agentHome();
  });

  afterAll(async () => {
    await stack?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  const task = writeFileTask;
  const target = (agentKey = key): AgentTarget => ({ gatewayUrl: gateway.url, key: agentKey, home });

  /** The follow-up turn carrying the tool's result reached the upstream in its own protocol. */
  const resultReached = (protocol: string, content: string, result: string) =>
    sim.requests().some((r) => r.protocol === protocol && JSON.stringify(r.body).includes(content.trim()) && JSON.stringify(r.body).includes(result));

  it.each(MODELS)('Claude Code writes a file through a %s-protocol upstream', async (protocol, model) => {
    const dir = mkdtempSync(join(tmpdir(), 'rosetta-cc-'));
    const content = `written by claude code via ${model}\n`;
    const { stdout } = await runClaudeCode(target(), model, dir, task(dir, 'Write', content));
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe(content);
    expect(stdout).toContain('Tool results received: File created successfully');
    expect(resultReached(protocol, content, 'File created successfully')).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a multi-turn Claude Code session through rosetta/auto stays on one model unless escalated (the ledger shows it)', async () => {
    const session = await createKey(gateway, 'pro');
    const dir = mkdtempSync(join(tmpdir(), 'rosetta-cc-auto-'));
    const sessionId = randomUUID();
    const claude = (prompt: string, resume: boolean) => runClaudeCode(target(session.key), 'rosetta/auto', dir, prompt, resume ? ['--resume', sessionId] : ['--session-id', sessionId]);
    // Three turns of one session, each a separate CLI run as a user would resume it: a tool loop,
    // a plain question, another tool loop.
    await claude(task(dir, 'Write', 'first\n'), false);
    await claude('Thanks! In one sentence, what did you just do?', true);
    await claude(task(dir, 'Write', 'second\n', 'notes.txt'), true);
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('first\n');
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('second\n');
    rmSync(dir, { recursive: true, force: true });
    let rows: { served_model: string; route: string }[] = [];
    for (let i = 0; i < 100 && rows.length < 5; i++) {
      rows = await query(stack.db.url, "SELECT served_model, route FROM request_log WHERE api_key_id = $1 AND requested_model = 'rosetta/auto' ORDER BY created_at", [session.id]);
      if (rows.length < 5) await new Promise((r) => setTimeout(r, 50));
    }
    // Two tool loops of two requests each and the question between them.
    expect(rows.length).toBeGreaterThanOrEqual(5);
    expect(rows[0]!.route).toMatch(/affinity=new/);
    for (const [i, row] of rows.entries()) {
      if (i === 0) continue;
      // Every later request is recognised as the same session, across the three CLI runs …
      expect(row.route).toMatch(/affinity=(kept|escalated)/);
      // … and served by the model before it unless the ledger records an escalation.
      if (!/affinity=escalated/.test(row.route)) expect(row.served_model).toBe(rows[i - 1]!.served_model);
    }
  });

  it.each(MODELS)('Gemini CLI writes a file through a %s-protocol upstream', async (protocol, model) => {
    const dir = mkdtempSync(join(tmpdir(), 'rosetta-gc-'));
    const content = `written by gemini cli via ${model}\n`;
    const { stdout } = await runGeminiCli(target(), model, dir, task(dir, 'write_file', content));
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe(content);
    expect(stdout).toContain('Tool results received: Successfully created and wrote to new file');
    expect(resultReached(protocol, content, 'Successfully created and wrote to new file')).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });

  /** Codex has a Pro key of its own: three agents' prompts in one minute would not fit one key's tokens per minute. */
  let codexKey: { id: string; key: string };

  it.each([...MODELS, ['openai-responses', RESPONSES_MODEL]] as const)('Codex CLI writes a file through a %s-protocol upstream', async (protocol, model) => {
    codexKey ??= await createKey(gateway, 'pro');
    const dir = mkdtempSync(join(tmpdir(), 'rosetta-codex-'));
    const content = `written by codex via ${model}`;
    const command = `printf '%s\\n' '${content}' > ${join(dir, 'hello.txt')}`;
    const codexTarget = target(codexKey.key);
    const { stdout } = await runCodex(codexTarget, model, dir, execTask(command), codexHome(codexTarget, '.codex'));
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe(`${content}\n`);
    // Codex ran the command and sent its output back; the upstream got it in its own protocol.
    expect(stdout).toContain('Tool results received:');
    expect(resultReached(protocol, content, 'Process exited with code 0')).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });

  /** What of the reasoning came back in the turn after the tool call, in each protocol's own shape. */
  const REPLAYED: Record<string, (body: Record<string, any>) => unknown[]> = {
    anthropic: (body) => body['messages'].flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).filter((p: any) => p.type === 'thinking' && p.signature),
    gemini: (body) => body['contents'].flatMap((c: any) => c.parts).filter((p: any) => typeof p.thoughtSignature === 'string'),
    // As Codex sent it: the encrypted content, and no id (Codex keeps none; the gateway adds none).
    'openai-responses': (body) => body['input'].filter((item: any) => item.type === 'reasoning' && typeof item.encrypted_content === 'string' && !('id' in item)),
  };

  it.each([MODELS[0], MODELS[2], ['openai-responses', RESPONSES_MODEL]] as const)('Codex CLI with reasoning on replays it through a %s-protocol upstream', async (protocol, model) => {
    codexKey ??= await createKey(gateway, 'pro');
    const dir = mkdtempSync(join(tmpdir(), 'rosetta-codex-'));
    const content = `reasoned by codex via ${model}`;
    const command = `printf '%s\\n' '${content}' > ${join(dir, 'hello.txt')}`;
    const config = ['model_reasoning_effort = "low"', 'model_reasoning_summary = "auto"', 'model_supports_reasoning_summaries = true'];
    const codexTarget = target(codexKey.key);
    const { stdout } = await runCodex(codexTarget, model, dir, execTask(command), codexHome(codexTarget, '.codex-reasoning', config));
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe(`${content}\n`);
    expect(stdout).toContain('Tool results received:');
    // The turn after the tool call carried the reasoning back to the upstream, in its own protocol.
    const followUp = sim.requests().filter((r) => r.protocol === protocol && JSON.stringify(r.body).includes('Process exited with code 0') && JSON.stringify(r.body).includes(content)).at(-1);
    expect(REPLAYED[protocol]!(followUp!.body as Record<string, any>)).toHaveLength(1);
    rmSync(dir, { recursive: true, force: true });
  });

  it('left no 429 in the ledger for the Pro keys the agents used', async () => {
    await stack.gateway.stop('SIGTERM'); // flushes the ledger
    for (const id of [keyId, codexKey.id]) {
      const rows = await query<{ status: number; n: number }>(stack.db.url, 'SELECT status, count(*)::int AS n FROM request_log WHERE api_key_id = $1 GROUP BY status ORDER BY status', [id]);
      expect(rows.length).toBeGreaterThan(0);
      expect({ id, limited: rows.filter((r) => r.status === 429) }).toEqual({ id, limited: [] });
    }
  });
});
