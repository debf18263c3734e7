/**
 * Finding the interpreter of a process runtime and the version it really is, so the run can say
 * when it differs from the entrypoint's pinned runtime_version.
 */
import { realpath } from 'node:fs/promises';
import { diag, type Diagnostic } from '../../diagnostics.js';
// Not through policy/index.js, which holds the policy file loader (YAML).
import { lookupCommand } from '../../fs/find-command.js';
import { spawnBounded } from '../process-runner.js';
import { programWritable } from '../writable.js';

export interface Interpreter {
  readonly name: string;
  readonly path: string;
  /** Real path (symlinks resolved): what the sandbox must be able to see. */
  readonly real: string;
  /** `20.19.0`, without a leading v; undefined when it could not be asked. */
  readonly version?: string;
  /**
   * node only: the data segment (VmData, KiB) a node process has before it runs anything. V8
   * reserves address space that counts against RLIMIT_DATA (about 50 MiB on Node 20, 560 MiB on
   * Node 24), so the data limit is this plus max_memory.
   */
  readonly baselineDataKiB?: number;
}

/** The node running skillctl: its version (and data segment) are known without starting another process. */
export interface HostNode {
  readonly path: string;
  readonly version: string;
  /** VmData of the running process, KiB: an upper bound of a fresh node's baseline. */
  readonly dataKiB?: number;
}

/** Prints node's version and its VmData (KiB) at start, for an interpreter that is not the host's. */
const NODE_PROBE = "process.stdout.write(process.versions.node+' '+(/VmData:\\s*(\\d+)/.exec(require('fs').readFileSync('/proc/self/status','utf8'))||[])[1])";

async function probeVersion(path: string, env: Readonly<Record<string, string>>): Promise<string | undefined> {
  const r = await spawnBounded({ argv: [path, '--version'], cwd: '/', env, timeoutMs: 5000, maxStdout: 4096, maxStderr: 4096 });
  if (r.exitCode !== 0) return undefined;
  const m = /(\d+\.\d+\.\d+)/.exec(`${r.stdout.toString('utf8')} ${r.stderr.toString('utf8')}`);
  return m?.[1];
}

export async function findInterpreter(
  name: string,
  env: Readonly<Record<string, string>>,
  hostNode: HostNode | undefined,
  writable: readonly string[],
): Promise<{ interpreter?: Interpreter; diagnostics: Diagnostic[] }> {
  // `node` is the node running skillctl: it always exists, its version is known without asking,
  // and it is the same whichever PATH the policy gives (a node installed by a version manager is
  // on none of them). Anything else is looked up on the run's PATH, the policy's.
  // One found inside a write grant is refused: its version probe runs outside every sandbox.
  const found = name === 'node' && hostNode !== undefined ? { ok: true as const, path: hostNode.path } : await lookupCommand(name, env.PATH ?? '', { writable });
  const planted = programWritable(name, found);
  if (planted !== undefined) return { diagnostics: [planted] };
  if (!found.ok) {
    return { diagnostics: [diag('RUN_RUNTIME_UNAVAILABLE', `${name} is ${found.reason}`, { hint: `install ${name} in a directory of the policy's path` })] };
  }
  const real = await realpath(found.path);
  let version: string | undefined;
  let baselineDataKiB: number | undefined;
  const isHost = hostNode !== undefined && (await realpath(hostNode.path).catch(() => hostNode.path)) === real;
  if (isHost) {
    version = hostNode.version.replace(/^v/, '');
    baselineDataKiB = hostNode.dataKiB;
  }
  if (name === 'node' && (!isHost || baselineDataKiB === undefined)) {
    const r = await spawnBounded({ argv: [found.path, '-e', NODE_PROBE], cwd: '/', env, timeoutMs: 10_000, maxStdout: 4096, maxStderr: 4096 });
    const m = /^(\d+\.\d+\.\d+) (\d+)$/.exec(r.stdout.toString('utf8'));
    if (r.exitCode === 0 && m !== null) {
      version = m[1];
      baselineDataKiB = Number(m[2]);
    }
  } else if (!isHost) {
    version = await probeVersion(found.path, env);
  }
  return {
    interpreter: { name, path: found.path, real, ...(version !== undefined ? { version } : {}), ...(baselineDataKiB !== undefined ? { baselineDataKiB } : {}) },
    diagnostics: [],
  };
}

/** A warning when the interpreter is not the pinned version (a pin is exact: 20.19.0, not 20). */
export function versionCheck(interpreter: Interpreter, pinned: string | undefined): Diagnostic[] {
  if (pinned === undefined || interpreter.version === undefined) return [];
  if (pinned.replace(/^v/, '') === interpreter.version) return [];
  return [
    diag('RUN_RUNTIME_VERSION_MISMATCH', `the entrypoint pins ${interpreter.name} ${pinned} but ${interpreter.path} is ${interpreter.version}`, {
      pointer: '/runtime_version',
      hint: 'results may differ from the pinned runtime; install the pinned version to reproduce them',
    }),
  ];
}

/** The node flag that turns on the permission model, by version (none before 20). */
/** Whether this node sends fetch and http requests through HTTP(S)_PROXY when NODE_USE_ENV_PROXY=1 is set (22.21, 24). */
export function nodeReadsProxyEnv(version: string | undefined): boolean {
  const [major = 0, minor = 0] = (version ?? '').split('.').map(Number);
  return major >= 24 || (major === 22 && minor >= 21);
}

export function nodePermissionFlag(version: string | undefined): string | undefined {
  const [major = 0, minor = 0] = (version ?? '').split('.').map(Number);
  if (major >= 24 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13)) return '--permission';
  if (major >= 20) return '--experimental-permission';
  return undefined;
}
