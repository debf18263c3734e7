/**
 * The exact version of an interpreter on this machine, for the runtime_version pin of a new or
 * converted entrypoint when the user did not give one. Shell only: the result depends on the
 * machine, so core functions take versions as input and never probe.
 */
import { spawnSync } from 'node:child_process';
import type { ScriptRuntime } from '../core/agent-skills/index.js';
import type { CliIO } from './io.js';

function run(io: CliIO, cmd: string, args: string[]): string | undefined {
  const r = spawnSync(cmd, args, { env: { ...io.env }, encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.error !== undefined || r.status !== 0) return undefined;
  return `${r.stdout}\n${r.stderr}`;
}

/** `3.11.7` for python3, the running Node's version for node, `bash@5.2` for shell. */
export function detectRuntimeVersion(io: CliIO, runtime: ScriptRuntime): string | undefined {
  switch (runtime) {
    case 'node':
      return process.versions.node;
    case 'python': {
      const m = /Python (\d+\.\d+\.\d+)/.exec(run(io, 'python3', ['--version']) ?? '');
      return m?.[1];
    }
    case 'shell': {
      const m = /version (\d+)\.(\d+)/.exec(run(io, 'bash', ['--version']) ?? '');
      return m ? `bash@${m[1]}.${m[2]}` : undefined;
    }
    default: {
      const never: never = runtime;
      return never;
    }
  }
}
