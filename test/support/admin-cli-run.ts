import { execFile } from 'node:child_process';
import { join } from 'node:path';

const CLI = join(__dirname, '..', '..', 'dist/apps/gateway/src/admin-cli.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run admin -- ...` as an operator runs it: the compiled CLI in a child process, talking HTTP to the gateway. */
export function runAdminCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { PATH: process.env['PATH'], ...env }, encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}
