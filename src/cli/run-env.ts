/**
 * What every command that runs skills sets up the same way (`skillctl run`, `skillctl mcp`): the
 * host policy in force, the audit file, where skill ids resolve (the project's lock, then the
 * default bundle inside the package), how schemas that name payload contracts compile, and the
 * files a skill may never write.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { ContractSet } from '../core/contracts/index.js';
import { SkillctlError } from '../core/errors.js';
// The light modules, not manifest/index.js and policy/index.js: a run of the default bundle
// needs neither the YAML parser nor the validators they hold (docs/performance.md); the policy
// file loader and the payload contracts come with the rest of the heavy half (loadFull).
import { MANIFEST_MAX_BYTES } from '../core/manifest/guards.js';
import { readInputFile } from '../core/fs/read-bounded.js';
import { defaultPolicy, POLICY_FILE_NAME } from '../core/policy/default.js';
import { envConfigs } from '../core/policy/env-configs.js';
import { runProtectedPaths } from '../core/policy/protected.js';
import { DEFAULT_LOCK_PATH } from '../core/pins/model.js';
import { readSkillRoots } from '../core/pins/project-skills.js';
import { repositoryNamedPaths } from './git-named-paths.js';
import {
  DEFAULT_AUDIT_PATH,
  defaultSchemaCompiler,
  expectedThreadLimits,
  loadFull,
  type BuiltinThread,
  type CgroupHost,
  type AuditLogPlace,
  type Builtins,
  type BundleSnapshots,
  type PolicyInForce,
  type RunOptions,
  type SchemaCompiler,
} from '../core/run/index.js';
import { takeEarlyBuiltinThread } from '../entry/builtin-early.js';
import { spareOf, startSpareWorker, type SpareWorker } from '../entry/spare-worker.js';
import { canStartWorkers, startWorker } from '../entry/workers.js';
import { VERSION } from '../generated/version.js';
import { BUILTIN_IDS } from '../skills/ids.js';
import type { Context } from './context.js';
import { readStdin } from './io.js';
import { homeDir } from './home.js';
import { nestedRootRefusal, policyBaseDir, policyFileRefusal } from './project-writes.js';
import { packageRoot } from './package-root.js';
import { pushAll } from '../core/findings.js';

/** The bytes of `file` (`-`: stdin), relative to the working directory; unreadable, not a regular file or over MANIFEST_MAX_BYTES is a SkillctlError. */
export async function readBytes(ctx: Context, file: string, what: string): Promise<Buffer> {
  if (file === '-') {
    const bytes = await readStdin(ctx.io, MANIFEST_MAX_BYTES);
    if (bytes === undefined) throw new SkillctlError('INPUT_UNREADABLE', `${what} on stdin exceeds ${MANIFEST_MAX_BYTES} bytes`);
    return bytes;
  }
  // Bounded in size and kind, as every file a user names: a FIFO no one writes, /dev/zero or a
  // terminal's /dev/stdin is refused before it is opened, a sparse giant after MANIFEST_MAX_BYTES + 1.
  return readInputFile(resolve(ctx.io.cwd, file), `${what} ${file}`, { maxBytes: MANIFEST_MAX_BYTES });
}

/** `--policy FILE`, else skillctl.policy.yaml in the project root, else the default policy. */
export async function policyInForce(ctx: Context, root: string | undefined, file: string | undefined): Promise<PolicyInForce> {
  const path = file !== undefined ? resolve(ctx.io.cwd, file) : root !== undefined ? join(root, POLICY_FILE_NAME) : undefined;
  if (path === undefined && existsSync(join(ctx.io.cwd, POLICY_FILE_NAME))) {
    ctx.note(
      `note: ${POLICY_FILE_NAME} here is not in force: a policy is read only at the project root (the nearest directory with pins/skills.lock.json, else the top of the git work tree), and there is none; the default policy applies (read inside this directory, nothing else). Make this directory a project root (git init, or skillctl pin), or pass --policy ${POLICY_FILE_NAME}.`,
    );
  }
  if (root !== undefined) {
    const planted = await nestedRootRefusal(root, file !== undefined);
    if (planted !== undefined) return { invalid: [planted], source: path ?? root };
  }
  if (file !== undefined && path !== undefined) {
    const rewritable = await policyFileRefusal(path, root);
    if (rewritable !== undefined) return { invalid: [rewritable], source: path };
  }
  if (path === undefined || (file === undefined && !existsSync(path))) return defaultPolicy(ctx.io.cwd);
  // A policy found at a root rather than named is read bounded and regular only: a nested root's
  // may have been planted (a FIFO would hold a plain read forever).
  const bytes = file !== undefined ? await readBytes(ctx, path, 'the policy') : await readInputFile(path, `the policy ${path}`, { maxBytes: MANIFEST_MAX_BYTES });
  const loaded = (await loadFull()).loadPolicy(bytes, { file: path, baseDir: await policyBaseDir(path) });
  return loaded.policy ?? { invalid: loaded.diagnostics, source: path };
}

/** `--audit FILE`, none with `--no-audit`, else .skillctl/audit.jsonl in the project root (or cwd). */
export function auditFileFor(cwd: string, root: string | undefined, flag: string | false | undefined): string | undefined {
  if (flag === false) return undefined;
  return typeof flag === 'string' ? resolve(cwd, flag) : join(root ?? cwd, DEFAULT_AUDIT_PATH);
}

/** Where the default log lies (no `--audit`), whose links below it openAuditLog refuses; nothing for a log the user named. */
export const auditPlaceFor = (cwd: string, root: string | undefined, flag: string | false | undefined): AuditLogPlace => (flag === undefined ? { defaultRoot: root ?? cwd } : {});

const snapshotsRead = new Map<string, BundleSnapshots | undefined>();

/** The build's validation results of the default bundle (dist/default-bundles.json), if present; read once. */
function defaultSnapshots(pkg: string): BundleSnapshots | undefined {
  if (!snapshotsRead.has(pkg)) {
    let read: BundleSnapshots | undefined;
    try {
      read = JSON.parse(readFileSync(join(pkg, 'dist', 'default-bundles.json'), 'utf8')) as BundleSnapshots;
    } catch {
      read = undefined;
    }
    snapshotsRead.set(pkg, read);
  }
  return snapshotsRead.get(pkg);
}

/** Skill ids resolve through the project's lock, then the default bundle inside the package. */
export function runResolveOptions(root: string | undefined): NonNullable<RunOptions['resolve']> {
  const pkg = packageRoot();
  const snapshots = defaultSnapshots(pkg);
  return { ...(root !== undefined ? { projectRoot: root } : {}), packageRoot: pkg, scratchDir: tmpdir(), ...(snapshots !== undefined ? { defaultSnapshots: snapshots } : {}) };
}

/** True when the schema `$ref`s another document (a payload contract), not only its own parts. */
function refersOut(schema: unknown): boolean {
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    const ref = (v as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && !ref.startsWith('#')) return true;
    pushAll(stack, Object.values(v));
  }
  return false;
}

/**
 * Schemas that `$ref` payload contracts compile against the contract set (built-in contracts and
 * --contracts directories, loaded once, only then); the rest with the engine's default compiler.
 */
function schemaCompiler(ctx: Context, dirs: readonly string[]): SchemaCompiler {
  let set: Promise<ContractSet> | undefined;
  return async (schema, label) => {
    if (!refersOut(schema)) return defaultSchemaCompiler(schema, label);
    // Loaded only for a schema that needs it: most runs never pay for the contract module.
    const contracts = await loadFull();
    set ??= contracts.loadContractSet({ dirs, cwd: ctx.io.cwd });
    return contracts.compilePayloadSchema(schema, await set, label);
  };
}

/** Where this process sits in the host's cgroups (/proc/self/cgroup), for a run's own cgroup; none off Linux. */
function cgroupHost(): { cgroups?: CgroupHost } {
  try {
    return { cgroups: { root: '/sys/fs/cgroup', self: readFileSync('/proc/self/cgroup', 'utf8') } };
  } catch {
    return {};
  }
}

/** This process's VmData (KiB): bounds what a fresh node of the same binary reserves at start. */
function dataSegment(): { dataKiB?: number } {
  try {
    const m = /VmData:\s*(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m !== null ? { dataKiB: Number(m[1]) } : {};
  } catch {
    return {};
  }
}

/**
 * The shipped built-ins run in worker threads started from the CLI's bundles (the start-up wing
 * finds them: src/entry/workers.ts), where the deadline and max_memory can stop them; without the
 * bundles (the library run from source), in this thread.
 */
function builtins(spare: SpareWorker | undefined): Builtins {
  if (!canStartWorkers()) return async (id) => (await import('../skills/index.js')).BUILTINS.get(id);
  return {
    has: (id) => BUILTIN_IDS.has(id),
    // One thread per run, serving one job (src/skills/worker.ts): the spare when its limits are these.
    start: (resourceLimits) => {
      const thread = spare?.take(resourceLimits) ?? startWorker({ chunk: 'builtin-worker', entry: 'workerMain', resourceLimits });
      if (thread === undefined) throw new Error('the built-in skills cannot start without the CLI bundles');
      return thread as unknown as BuiltinThread;
    },
  };
}

/**
 * For a run of a shipped built-in, its thread, with the heap limits the shipped manifest and the
 * policy give it (src/entry/spare-worker.ts): it boots while the run resolves, authorises and
 * prepares. The run takes it only if its grant has exactly those limits. The start-up wing may
 * have started one already, under the default policy (src/entry/builtin-early.ts): it is this
 * thread when it was started for this skill and entrypoint with these limits; otherwise it is
 * stopped and one is started now.
 */
export function spareBuiltinThread(target: string, entrypoint: string | undefined, policy: PolicyInForce): SpareWorker | undefined {
  const early = takeEarlyBuiltinThread();
  const manifest = BUILTIN_IDS.has(target) && canStartWorkers() ? defaultSnapshots(packageRoot())?.[target]?.manifest : undefined;
  const resourceLimits = manifest !== undefined && !('invalid' in policy) ? expectedThreadLimits(manifest, entrypoint, policy) : undefined;
  if (resourceLimits === undefined) {
    early?.spare.stop();
    return undefined;
  }
  const same = early !== undefined && early.skillId === target && early.entrypoint === entrypoint;
  if (!same) early?.spare.stop();
  const taken = same ? early.spare.take(resourceLimits) : undefined;
  return taken !== undefined ? spareOf(taken, resourceLimits) : startSpareWorker({ chunk: 'builtin-worker', entry: 'workerMain', resourceLimits });
}

export interface RunSetup {
  readonly root: string | undefined;
  readonly policy: PolicyInForce;
  readonly auditFile: string | undefined;
  /** `--contracts DIR`s for schemas that name payload contracts. */
  readonly contracts?: readonly string[];
  /** A built-in's thread started early (spareBuiltinThread). */
  readonly spare?: SpareWorker;
  /** A wasm module's thread started early (wasm-spare.ts). */
  readonly wasmSpare?: SpareWorker;
  /** The registries this command serves (`skillctl mcp`). */
  readonly registries?: readonly string[];
  /** Files this command trusts that no skill it runs may change (`mcp --http-token-file`). */
  readonly trusted?: readonly string[];
  /**
   * Files this command keeps secret from every skill it runs, which none may read either
   * (`mcp --http-token-file`: whoever reads the token opens sessions of their own).
   */
  readonly secrets?: readonly string[];
  /** The skill roots no skill it runs may change (projectSkillRoots, and `mcp --skills DIR`s). */
  readonly skillRoots?: readonly string[];
}

/**
 * The project's skill roots (the lock's `skill_roots`, else the defaults), absolute: what the next
 * `mcp --skills` there serves. Read only for a policy that lets skills write: no other run can
 * change them.
 */
export async function projectSkillRoots(root: string | undefined, policy: PolicyInForce): Promise<string[]> {
  if (root === undefined || 'invalid' in policy || policy.fsWrite.length === 0) return [];
  const read = await readSkillRoots(join(root, ...DEFAULT_LOCK_PATH.split('/')));
  return read.roots.map((r) => join(root, ...r.split('/')));
}

/** `path` with its links resolved as far as it exists (a grant not made yet keeps its missing tail). */
function realSync(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realSync(parent), basename(path));
  }
}

/**
 * The home and the policy's write grants, by their real paths: which of the home's own paths a
 * skill may write is a question about the directories, not their spellings. HOME may name the home
 * through a link (FreeBSD's /home -> /usr/home, a home moved to another disk) while the policy
 * names its real path, or a parent (`..` from the policy's real directory): compared as spelt, the
 * home's ~/.local/bin, ~/.kube and the rest were left out of the run's protection.
 */
function homeGrants(home: string, fsWrite: readonly string[]): { dir: string; writable: string[] } {
  return { dir: realSync(home), writable: fsWrite.map(realSync) };
}

/** The engine's options for runs from this process. */
export function runOptions(ctx: Context, setup: RunSetup): RunOptions {
  const { root, policy, auditFile } = setup;
  // The registry the next `skillctl mcp` here serves, besides those this command serves.
  const named = ctx.io.env.SKILLCTL_REGISTRY;
  const registries = [...(setup.registries ?? []), ...(named !== undefined && named !== '' ? [resolve(ctx.io.cwd, named)] : [])];
  return {
    cwd: ctx.io.cwd,
    env: ctx.io.env,
    policy,
    // process.hrtime, not performance.now(): the performance global loads perf_hooks (~1 ms).
    clock: { now: () => Date.now(), monotonic: () => Number(process.hrtime.bigint()) / 1e6 },
    builtins: builtins(setup.spare),
    compileSchema: schemaCompiler(ctx, setup.contracts ?? []),
    resolve: runResolveOptions(root),
    hostNode: { path: process.execPath, version: process.version, ...dataSegment() },
    ...cgroupHost(),
    skillctlVersion: VERSION,
    ...(setup.wasmSpare !== undefined ? { wasmSpare: setup.wasmSpare } : {}),
    // The audit log, the policy file, the project's pins and the registries: never writable by a skill.
    protectedPaths: runProtectedPaths({
      cwd: ctx.io.cwd,
      install: packageRoot(),
      node: process.execPath,
      ...(root !== undefined ? { root } : {}),
      ...(auditFile !== undefined ? { auditFile } : {}),
      ...('invalid' in policy || policy.source === 'default' ? {} : { policyFile: policy.source }),
      registries,
      ...(setup.trusted !== undefined ? { trusted: setup.trusted.map((f) => resolve(ctx.io.cwd, f)) } : {}),
      ...(setup.skillRoots !== undefined ? { skillRoots: setup.skillRoots.map((d) => resolve(ctx.io.cwd, d)) } : {}),
      ...('invalid' in policy || policy.fsWrite.length === 0 ? {} : { home: homeGrants(homeDir(ctx.io), policy.fsWrite) }),
      envConfigs: envConfigs(ctx.io.env, ctx.io.cwd),
    }),
    ...(setup.secrets !== undefined ? { secretPaths: setup.secrets.map((f) => resolve(ctx.io.cwd, f)) } : {}),
    repositoryPaths: (git) => repositoryNamedPaths(git, ctx.io.cwd, ctx.io.env),
  };
}
