/**
 * The container runtime: the entrypoint's command runs in the image its runtime_version pins by
 * digest, through docker or podman, with no network unless net.http is granted, a read-only
 * root, no capabilities, the bundle mounted read-only at /skill and the granted paths at their
 * own paths. Without a container engine that answers, the run stops with a clear error.
 */
import { posix } from 'node:path';
import { diag, type Diagnostic } from '../../diagnostics.js';
import { commandArgv, type Entrypoint } from '../../manifest/model.js';
import { PINNED_IMAGE } from '../../manifest/image-ref.js';
// Not through policy/index.js, which holds the policy file loader (YAML).
import { entryExists } from '../../fs/index.js';
import { lookupCommand } from '../../fs/find-command.js';
import type { GrantedPermissions } from '../../policy/grant.js';
import { within } from '../../policy/paths.js';
import { isSecretDir } from '../../policy/protected.js';
import { failed, interpretProcess, type Attempt } from '../attempt.js';
import { spawnBounded } from '../process-runner.js';
import { notDirsOnTheWay, protectMounts, shownGrants } from '../protect-mounts.js';
import { secretFilesIn } from '../secret-files.js';
import { serviceCovers, type HostServices } from '../host-sockets.js';
import { programWritable } from '../writable.js';
import { pushAll } from '../../findings.js';

export interface ContainerSpec {
  readonly engine: string;
  readonly name: string;
  readonly image: string;
  readonly bundleDir: string;
  readonly workingDirectory: string;
  readonly granted: GrantedPermissions;
  readonly memoryMiB: number;
  readonly argv: readonly string[];
  /** Mounted read-only over the write grants (policy, lock, audit log), as protectMounts says. */
  readonly protect?: readonly string[];
  /** Files on the way to a protected path (SandboxSpec.notDirs). */
  readonly notDirs?: readonly string[];
  /** Secret files inside a grant (SandboxSpec.hideFiles): each covered with /dev/null, read-only. */
  readonly hideFiles?: readonly string[];
  /** Service directories inside a grant that no grant names (host-sockets.ts): each an empty tmpfs. */
  readonly hideDirs?: readonly string[];
  /** `uid:gid` the container runs as (containerUser); absent: the image's user. */
  readonly user?: string;
}

/** The engine's argv. Environment values are not on it: `-e NAME` passes them from the engine's environment. */
export function containerArgs(s: ContainerSpec): string[] {
  const args = ['run', '--rm', '-i', '--name', s.name, '--read-only', '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges'];
  const memory = `${Math.max(6, Math.floor(s.memoryMiB))}m`;
  // Memory and swap together, as a run's cgroup sets memory.swap.max to 0: `--memory` alone lets
  // the container swap out as much again (docker's default swap limit is twice the memory).
  args.push('--pids-limit', '256', '--memory', memory, '--memory-swap', memory, '--tmpfs', '/tmp');
  if (s.granted.netHttp.length === 0) args.push('--network', 'none');
  if (s.user !== undefined) args.push('--user', s.user);
  args.push('-v', `${s.bundleDir}:/skill:ro`, '-w', posix.join('/skill', s.workingDirectory));
  // As bubblewrap shows them: a write grant inside a protected path read-only, one inside a secret one not at all.
  const shown = shownGrants(s.granted.fsRead, s.granted.fsWrite, s.protect ?? []);
  const write = new Set(shown.write);
  for (const p of shown.read) if (!write.has(p)) args.push('-v', `${p}:${p}:ro`);
  for (const p of shown.write) args.push('-v', `${p}:${p}:rw`);
  for (const m of protectMounts(s.protect ?? [], shown.write, s.notDirs)) args.push('-v', `${m.path}:${m.path}:${m.writable ? 'rw' : 'ro'}`);
  // Secret keys inside a grant (protect holds only paths that exist): covered, empty.
  for (const p of s.protect ?? []) if (isSecretDir(p) && [...shown.read, ...shown.write].some((g) => within(p, g))) args.push('--tmpfs', p);
  // The host's service directories a grant shows without naming them: covered, empty (host-sockets.ts).
  for (const d of s.hideDirs ?? []) args.push('--tmpfs', d);
  for (const f of s.hideFiles ?? []) args.push('-v', `/dev/null:${f}:ro`);
  for (const name of s.granted.env) args.push('-e', name);
  pushAll(args, ['--', s.image, ...s.argv]);
  return args;
}

/** The image reference from runtime_version (a registry's `image@sha256:<digest>`, as the manifest rule requires: PINNED_IMAGE). */
export function imageOf(ep: Entrypoint): string | undefined {
  return ep.runtime_version !== undefined && PINNED_IMAGE.test(ep.runtime_version) ? ep.runtime_version : undefined;
}

/** The first engine on PATH whose daemon answers, or a diagnostic saying why there is none. */
export async function findEngine(env: Readonly<Record<string, string>>, writable: readonly string[]): Promise<{ engine: string } | { diagnostic: Diagnostic }> {
  const reasons: string[] = [];
  for (const name of ['docker', 'podman']) {
    // A planted engine is refused, not passed over: it runs outside every sandbox (its version probe too).
    const found = await lookupCommand(name, env.PATH ?? '', { writable });
    const planted = programWritable(name, found);
    if (planted !== undefined) return { diagnostic: planted };
    if (!found.ok) {
      reasons.push(`${name} is ${found.reason}`);
      continue;
    }
    const probe = await spawnBounded({ argv: [found.path, 'version', '--format', '{{.Server.Version}}'], cwd: '/', env, timeoutMs: 10_000, maxStdout: 64 * 1024, maxStderr: 64 * 1024 });
    if (probe.exitCode === 0) return { engine: found.path };
    const why = probe.stderrTail.trim().split('\n').pop() ?? '';
    reasons.push(`${name} is installed but its engine does not answer${why !== '' ? ` (${why})` : ''}`);
  }
  return {
    diagnostic: diag('RUN_CONTAINER_ENGINE_UNAVAILABLE', `no container engine available: ${reasons.join('; ')}`, {
      hint: 'start the docker daemon (or install podman), or run a bundle with a node, python or shell entrypoint',
    }),
  };
}

/**
 * The user a container must run as so that it holds its grants with the rights of the user who
 * runs skillctl, or undefined when its root already is that user. A rootful docker daemon's root
 * is the host's: without capabilities it still owns every file root owns, so a container granted
 * `/etc` read `/etc/shadow` (0640, its owner's) and one granted a folder left setuid-root files
 * there, where bubblewrap gives the same grant only the user's rights. A rootless daemon, one that
 * remaps users (`userns`), and podman started by a user other than root (always rootless) map the
 * container's root to that user or to an unprivileged one; an engine that does not say (podman
 * behind the name docker) is left as it was.
 */
export async function containerUser(engine: string, env: Readonly<Record<string, string>>, ids: { readonly uid: number; readonly gid: number } | undefined): Promise<string | undefined> {
  if (ids === undefined || ids.uid === 0 || posix.basename(engine) === 'podman') return undefined;
  const probe = await spawnBounded({ argv: [engine, 'info', '--format', '{{json .SecurityOptions}}'], cwd: '/', env, timeoutMs: 10_000, maxStdout: 64 * 1024, maxStderr: 64 * 1024 });
  if (probe.exitCode !== 0) return undefined;
  let options: unknown;
  try {
    options = JSON.parse(probe.stdout.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(options) || !options.every((o) => typeof o === 'string')) return undefined;
  const mapped = options.some((o: string) => o.split(',').some((kv) => kv === 'name=rootless' || kv === 'name=userns'));
  return mapped ? undefined : `${ids.uid}:${ids.gid}`;
}

export interface ContainerRunOptions {
  readonly ep: Entrypoint;
  readonly bundleDir: string;
  readonly granted: GrantedPermissions;
  readonly limits: { readonly timeoutMs: number; readonly memoryMiB: number; readonly maxOutputBytes: number };
  /** The skill's environment: what `-e NAME` passes into the container. */
  readonly env: Readonly<Record<string, string>>;
  /**
   * The engine's HOME: the home the run protects. The engine obeys its configuration there
   * (credential helpers, plugins, contexts; podman's runtimes and hooks) outside every sandbox,
   * and without HOME docker and podman take the account's home from the password database,
   * which is not the home protected when HOME names another folder.
   */
  readonly home?: string;
  /** Real paths of the policy's fs.write: an engine found inside one is refused (RUN_PROGRAM_WRITABLE). */
  readonly writable: readonly string[];
  /** Distinguishes concurrent runs' containers, so a timeout can stop the right one. */
  readonly runId: string;
  readonly protectedPaths?: readonly string[];
  /** Real paths of files the skill may never read (RunOptions.secretPaths). */
  readonly secretPaths?: readonly string[];
  /** The host's services whose sockets the container does not show (host-sockets.ts). Default: none. */
  readonly services?: HostServices;
}

export async function runContainer(o: ContainerRunOptions, input: Uint8Array, signal?: AbortSignal): Promise<Attempt> {
  const none = { stdoutTruncated: false, stderrTruncated: false };
  const image = imageOf(o.ep);
  if (image === undefined) {
    return { outcome: failed('unavailable', [diag('RUN_RUNTIME_UNAVAILABLE', 'a container entrypoint pins its image as runtime_version: image@sha256:<digest>', { pointer: '/runtime_version' })]), ...none };
  }
  const env = o.home !== undefined ? { ...o.env, HOME: o.home } : o.env;
  const engine = await findEngine(env, o.writable);
  if ('diagnostic' in engine) return { outcome: failed('unavailable', [engine.diagnostic]), ...none };
  const ids = process.getuid !== undefined && process.getgid !== undefined ? { uid: process.getuid(), gid: process.getgid() } : undefined;
  const user = await containerUser(engine.engine, env, ids);
  const name = `skillctl-${o.runId}`;
  // Only what exists is mounted: docker creates a missing bind source (a directory the run then
  // finds planted and removes, denying the run) and podman refuses it. What is absent is checked
  // after the run instead (planted.ts).
  const protect: string[] = [];
  for (const p of o.protectedPaths ?? []) if (await entryExists(p)) protect.push(p);
  const notDirs = await notDirsOnTheWay(o.protectedPaths ?? [], o.granted.fsWrite);
  const grants = [...o.granted.fsRead, ...o.granted.fsWrite];
  const covers = await serviceCovers(o.services ?? { sockets: [], dirs: [] }, grants);
  const hideFiles = [...(await secretFilesIn(o.secretPaths ?? [], grants)), ...covers.files];
  const spec = { engine: engine.engine, name, image, bundleDir: o.bundleDir, workingDirectory: o.ep.working_directory, granted: { ...o.granted, env: o.granted.env.filter((n) => o.env[n] !== undefined) }, memoryMiB: o.limits.memoryMiB, argv: commandArgv(o.ep.command), protect, notDirs, hideFiles, hideDirs: covers.dirs, ...(user !== undefined ? { user } : {}) };
  const argv = [engine.engine, ...containerArgs(spec)];
  const r = await spawnBounded({ argv, cwd: o.bundleDir, env, stdin: input, timeoutMs: o.limits.timeoutMs, maxStdout: o.limits.maxOutputBytes, maxStderr: o.limits.maxOutputBytes, stopAtLimit: true, ...(signal !== undefined ? { signal } : {}) });
  if (r.timedOut || r.outputLimit || r.aborted) {
    // The engine's client was killed (a limit, or the run interrupted); the container itself runs
    // in the daemon, its grants mounted, and is stopped there: left, it outlived the run's limits
    // and the checks that remove what a program planted once it ends.
    await spawnBounded({ argv: [engine.engine, 'rm', '-f', name], cwd: '/', env, timeoutMs: 10_000, maxStdout: 4096, maxStderr: 4096 });
  }
  return interpretProcess(r, o.limits);
}
