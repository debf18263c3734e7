/**
 * Hostile inputs for the attack suite (test/security/): FIFOs and sockets where files are read,
 * documents wide, deep or full of findings, and a runner that treats a hang as a failure.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { skillctl, type CliRun } from './cli.js';

/**
 * How long a command may take before the test calls it hung. A guard, not a speed figure: the
 * gzip bomb's run takes 4.5 s alone and passed 15 s in CI, four test files at once on two cores.
 */
export const HANG_GUARD_MS = 30_000;

/** Makes a FIFO at `path` (mkfifo(1)); nothing ever writes to it, so a reader blocks forever. */
export function fifo(path: string): void {
  const r = spawnSync('mkfifo', [path]);
  assert.equal(r.status, 0, `mkfifo ${path}: ${r.stderr.toString()}`);
}

/** A listening Unix socket at `path`; close it when done. */
export async function socketAt(path: string): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, resolve);
  });
  return server;
}

/** Whether this process runs as root, where permission bits do not stop writes. */
export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

export interface Answer extends CliRun {
  /** Every `"code"` in the JSON output, in order (diagnostics and `error`). */
  readonly codes: string[];
}

/** Runs skillctl (with `--json` added) and fails the test, instead of hanging, when it does not finish in time. */
export function answer(args: readonly string[], cwd: string, input = ''): Answer {
  let r: CliRun;
  try {
    r = skillctl([...args, '--json'], { cwd, input, timeoutMs: HANG_GUARD_MS });
  } catch (err) {
    assert.fail(`skillctl ${args.join(' ')} did not finish within ${HANG_GUARD_MS} ms (${err instanceof Error ? err.message : String(err)})`);
  }
  const codes = [...r.stdout.matchAll(/"code": "([A-Z0-9_]+)"/g)].map((m) => m[1] as string);
  return { ...r, codes };
}

/** `n` keys `k0: v` ... as YAML lines, after `head`. */
export function manyKeysYaml(head: string, n: number, prefix = 'x_key_'): string {
  const lines: string[] = [head.trimEnd()];
  for (let i = 0; i < n; i++) lines.push(`${prefix}${i}: v`);
  return lines.join('\n') + '\n';
}

/** A mapping nested `depth` levels deep in block style (`k:` on each line, one more space each). */
export function deepBlockYaml(depth: number, key = 'x'): string {
  let s = `${key}:\n`;
  for (let i = 1; i < depth; i++) s += `${' '.repeat(i)}k:\n`;
  return s + `${' '.repeat(depth)}v\n`;
}

/** Sequences nested `depth` levels deep on one line (`- - - ... v`): deep, and small. */
export function deepCompactYaml(depth: number, key = 'x'): string {
  return `${key}:\n  ${'- '.repeat(depth)}v\n`;
}
