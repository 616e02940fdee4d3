import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** A fenced code block of a Markdown page, with the headings and the bold lead it sits under. */
export interface CodeBlock {
  lang: string;
  code: string;
  /** The nearest `##` heading above it. */
  section: string;
  /** The nearest paragraph lead in bold above it (`**OpenAI chat completions** — …`), or ''. */
  lead: string;
  /** 1-based line of the opening fence, for messages. */
  line: number;
}

/** Every fenced block of a page, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  let section = '';
  let lead = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heading = /^##\s+(.*)$/.exec(line);
    if (heading) {
      section = heading[1]!.trim();
      lead = '';
      continue;
    }
    const bold = /^\*\*(.+?)\*\*/.exec(line);
    if (bold) lead = bold[1]!;
    const fence = /^```(\w*)\s*$/.exec(line);
    if (!fence) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    blocks.push({ lang: fence[1]!, code: body.join('\n'), section, lead, line: start + 1 });
  }
  return blocks;
}

/** One bash session that keeps its variables from block to block, as a terminal does. */
export class ShellSession {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = '';
  private stderr = '';
  private count = 0;

  constructor(cwd: string, env: Record<string, string | undefined>) {
    this.child = spawn('bash', ['--norc', '--noprofile'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => { this.buffer += chunk.toString(); });
    this.child.stderr.on('data', (chunk: Buffer) => { this.stderr += chunk.toString(); });
    this.child.stdin.write('set -o pipefail\n');
  }

  /** Runs a block as if typed; resolves with what it printed and the status of its last command. */
  run(code: string): Promise<{ status: number; stdout: string; stderr: string }> {
    const marker = `__block_${++this.count}_done__`;
    this.buffer = '';
    this.stderr = '';
    // A here-document keeps the block's own quoting intact; eval runs it in this shell.
    this.child.stdin.write(`eval "$(cat <<'__ROSETTA_BLOCK__'\n${code}\n__ROSETTA_BLOCK__\n)"\necho "${marker} $?"\n`);
    return new Promise((resolve, reject) => {
      const onData = (): void => {
        const match = new RegExp(`${marker} (\\d+)\\n`).exec(this.buffer);
        if (!match) return;
        this.child.stdout.off('data', onData);
        this.child.off('exit', onExit);
        resolve({ status: Number(match[1]), stdout: this.buffer.slice(0, match.index), stderr: this.stderr });
      };
      const onExit = (): void => reject(new Error(`the shell exited while running:\n${code}\n${this.stderr}`));
      this.child.stdout.on('data', onData);
      this.child.once('exit', onExit);
      onData();
    });
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }
}
