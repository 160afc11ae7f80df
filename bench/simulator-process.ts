import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The simulator start the PSA benches share; apart from bench-server.ts so they load no app code.

/** The PSA simulator in a process of its own (its CLI with these arguments, after `--port 0`), once it listens. */
export async function startSimulatorProcess(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const repoRoot = fileURLToPath(new URL('..', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/psa-sim/src/cli.ts', '--port', '0', ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout?.setEncoding('utf8');
  for await (const chunk of child.stdout ?? []) {
    output += String(chunk);
    const match = /listening on (http:\/\/\S+)/.exec(output);
    if (match?.[1]) return { child, url: match[1] };
  }
  throw new Error(`the simulator exited before listening:\n${output}`);
}
