/**
 * A program of another run that races a command's scratch work in the temporary directory: a
 * python script run by shell.exec_safe under bubblewrap, with a policy that grants it the folder
 * `tmp` of a work directory (the command's `TMPDIR`) to write. The script gets that folder as its
 * argument, must write `racer-ready` there when it starts, stop once `racer-stop` appears, and
 * print `seen N wrote M`.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { json, skillctlAsync } from './cli.js';
import { tempDir } from './project.js';

export interface TmpRacer {
  /** The work directory (a project of its own, removed by the caller). */
  readonly work: string;
  /** The environment the raced command gets: its TMPDIR is the racer's folder. */
  readonly env: Record<string, string>;
  /** Starts the racer and waits until it is ready; `stop` ends it and answers what it printed. */
  start(): Promise<{ stop: () => Promise<{ seen: number; wrote: number; stdout: string }> }>;
}

export async function tmpRacer(prefix: string, script: string, env: Record<string, string> = {}): Promise<TmpRacer> {
  const work = await tempDir(prefix);
  await mkdir(join(work, '.git'));
  await mkdir(join(work, 'tmp'));
  await writeFile(join(work, 'racer.py'), script);
  await writeFile(join(work, 'racer.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n  fs.write: [tmp]\n  exec: [python3]\n');
  const tmp = join(work, 'tmp');
  const racerEnv = { ...env, TMPDIR: tmp };
  const start = async (): Promise<{ stop: () => Promise<{ seen: number; wrote: number; stdout: string }> }> => {
    const racing = skillctlAsync(['run', 'shell.exec_safe', '--input', '-', '--policy', 'racer.policy.yaml', '--sandbox', 'bwrap', '--no-audit', '--json'], {
      cwd: work,
      env: racerEnv,
      input: JSON.stringify({ argv: ['python3', 'racer.py', tmp], timeout_ms: 110_000 }),
      timeoutMs: 150_000,
    });
    for (let i = 0; i < 200 && !existsSync(join(tmp, 'racer-ready')); i++) await sleep(100);
    assert.ok(existsSync(join(tmp, 'racer-ready')), 'the racer started');
    return {
      stop: async () => {
        await writeFile(join(tmp, 'racer-stop'), '');
        const raced = await racing;
        const stdout = json<{ output: { stdout: string } }>(raced).output.stdout;
        const m = /seen (\d+) wrote (\d+)/.exec(stdout);
        assert.ok(m !== null, `the racer printed no count: ${raced.stdout}`);
        return { seen: Number(m[1]), wrote: Number(m[2]), stdout };
      },
    };
  };
  return { work, env: racerEnv, start };
}
