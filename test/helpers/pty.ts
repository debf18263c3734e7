import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BIN, ROOT } from './paths.js';

export interface PtyStep {
  /** A regular expression the screen must show (after the previous match) before typing. */
  readonly expect: string;
  /** Keys to type: text, '\r' for Enter, '\x1b[B' for the down arrow, ' ' to tick, '\x03' for Ctrl-C. */
  readonly send: string;
}

export interface PtyRun {
  readonly exit: number;
  readonly output: string;
  /** The step whose expected text never appeared, or null. */
  readonly failed_step: number | null;
}

export const KEY = { enter: '\r', down: '\x1b[B', space: ' ', ctrlC: '\x03', backspace: '\x7f' } as const;

/**
 * Runs the built skillctl in a real pseudo-terminal (python3's pty module), typing `steps` at its
 * prompts. Nothing is mocked: the command sees a TTY on stdin and stdout, as on a person's terminal.
 */
export function skillctlInPty(args: readonly string[], steps: readonly PtyStep[], opts: { cwd: string; timeoutS?: number }): PtyRun {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'NO_COLOR' && k !== 'FORCE_COLOR' && k !== 'CI') env[k] = v;
  env.TERM = 'xterm-256color';
  const request = { argv: [process.execPath, BIN, ...args], cwd: opts.cwd, env, timeout: opts.timeoutS ?? 30, steps };
  const r = spawnSync('python3', [join(ROOT, 'test', 'helpers', 'pty-driver.py')], { input: JSON.stringify(request), encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`pty driver failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as PtyRun;
}
