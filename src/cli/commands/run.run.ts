import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { sortDiagnostics, type Diagnostic } from '../../core/diagnostics.js';
import { errnoCode, SkillctlError } from '../../core/errors.js';
import { findProjectRoot } from '../../core/fs/index.js';
import { MANIFEST_MAX_BYTES } from '../../core/manifest/index.js';
import { defaultPolicy, loadPolicy, POLICY_FILE_NAME } from '../../core/policy/index.js';
import type { ContractSet } from '../../core/contracts/index.js';
import {
  DEFAULT_AUDIT_PATH,
  defaultSchemaCompiler,
  openAuditLog,
  runSkill,
  type BundleSnapshots,
  type PolicyInForce,
  type RunResult,
  type SchemaCompiler,
} from '../../core/run/index.js';
import { VERSION } from '../../generated/version.js';
import { BUILTINS } from '../../skills/index.js';
import type { Context } from '../context.js';
import { exitCodeFor } from '../exit.js';
import { readStdin } from '../io.js';
import { renderGrouped } from '../render/diagnostics.js';
import { renderJson } from '../render/json.js';
import type { RunCommandOptions } from './run.js';

/** The installed skillctl package (holding manifests/default and its pins), from the running binary. */
function packageRoot(): string | undefined {
  const bin = process.argv[1];
  if (bin === undefined) return undefined;
  try {
    const root = dirname(dirname(realpathSync(bin)));
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name?: unknown };
    return pkg.name === 'skillctl' ? root : undefined;
  } catch {
    return undefined;
  }
}

/** The build's validation results of the default bundle (dist/default-bundles.json), if present. */
function defaultSnapshots(pkg: string | undefined): BundleSnapshots | undefined {
  if (pkg === undefined) return undefined;
  try {
    return JSON.parse(readFileSync(join(pkg, 'dist', 'default-bundles.json'), 'utf8')) as BundleSnapshots;
  } catch {
    return undefined;
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

async function readBytes(ctx: Context, file: string, what: string): Promise<Buffer> {
  if (file === '-') {
    const bytes = await readStdin(ctx.io, MANIFEST_MAX_BYTES);
    if (bytes === undefined) throw new SkillctlError('INPUT_UNREADABLE', `${what} on stdin exceeds ${MANIFEST_MAX_BYTES} bytes`);
    return bytes;
  }
  try {
    return await readFile(resolve(ctx.io.cwd, file));
  } catch (err) {
    const code = errnoCode(err);
    throw new SkillctlError(code === 'ENOENT' ? 'INPUT_NOT_FOUND' : 'INPUT_UNREADABLE', `cannot read ${what} ${file}: ${code ?? String(err)}`, { cause: err });
  }
}

async function policyInForce(ctx: Context, root: string | undefined, file: string | undefined): Promise<PolicyInForce> {
  const path = file !== undefined ? resolve(ctx.io.cwd, file) : root !== undefined ? join(root, POLICY_FILE_NAME) : undefined;
  if (path === undefined || (file === undefined && !existsSync(path))) return defaultPolicy(ctx.io.cwd);
  const bytes = await readBytes(ctx, path, 'the policy');
  const loaded = loadPolicy(bytes, { file: path, baseDir: dirname(path) });
  return loaded.policy ?? { invalid: loaded.diagnostics, source: path };
}

/** True when the schema `$ref`s another document (a payload contract), not only its own parts. */
function refersOut(schema: unknown): boolean {
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    const ref = (v as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && !ref.startsWith('#')) return true;
    stack.push(...Object.values(v));
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
    const contracts = await import('../../core/contracts/index.js');
    set ??= contracts.loadContractSet({ dirs, cwd: ctx.io.cwd });
    return contracts.compilePayloadSchema(schema, await set, label);
  };
}

function retriesOf(raw: string | undefined): number {
  const n = Number(raw ?? '0');
  if (!Number.isInteger(n) || n < 0 || n > 3) throw new SkillctlError('USAGE', `--retries ${raw ?? ''}: a whole number from 0 to 3`);
  return n;
}

function resultJson(r: RunResult, auditFile: string | undefined): Record<string, unknown> {
  const { request, policy, result } = r.record;
  return {
    ok: r.status === 'ok',
    status: r.status,
    exit_code: r.exitCode,
    skill: { skill_id: request.skill_id, skill_version: request.skill_version, entrypoint_id: request.entrypoint_id, origin: request.origin },
    output: r.output ?? null,
    error: r.error ?? null,
    stderr: r.stderr ?? null,
    truncated: result.truncated,
    sandbox: result.sandbox,
    policy: { source: policy.source, decision: policy.decision, reason: policy.reason },
    audit: auditFile !== undefined ? { file: auditFile, receipt_hash: r.record.receipt_hash } : null,
    diagnostics: r.diagnostics,
  };
}

export async function run(ctx: Context, target: string, opts: RunCommandOptions): Promise<number> {
  const retries = retriesOf(opts.retries);
  const cwd = ctx.io.cwd;
  const root = await findProjectRoot(cwd);
  const policy = await policyInForce(ctx, root, opts.policy);
  const input = opts.input !== undefined ? await readBytes(ctx, opts.input, 'the input') : undefined;
  const auditFile = opts.audit === false ? undefined : typeof opts.audit === 'string' ? resolve(cwd, opts.audit) : join(root ?? cwd, DEFAULT_AUDIT_PATH);
  // Opened before anything runs: a run that cannot be recorded does not happen.
  const log = auditFile !== undefined ? await openAuditLog(auditFile) : undefined;
  const pkg = packageRoot();
  const snapshots = defaultSnapshots(pkg);
  let result: RunResult;
  try {
    result = await runSkill(
      { target, ...(opts.entrypoint !== undefined ? { entrypoint: opts.entrypoint } : {}), ...(input !== undefined ? { input } : {}), retries, sandbox: opts.sandbox ?? 'auto' },
      {
        cwd,
        env: ctx.io.env,
        policy,
        // process.hrtime, not performance.now(): the performance global loads perf_hooks (~1 ms).
        clock: { now: () => Date.now(), monotonic: () => Number(process.hrtime.bigint()) / 1e6 },
        builtins: async (id) => BUILTINS.get(id),
        compileSchema: schemaCompiler(ctx, opts.contracts ?? []),
        resolve: {
          ...(root !== undefined ? { projectRoot: root } : {}),
          ...(pkg !== undefined ? { packageRoot: pkg } : {}),
          ...(snapshots !== undefined ? { defaultSnapshots: snapshots } : {}),
        },
        hostNode: { path: process.execPath, version: process.version, ...dataSegment() },
        skillctlVersion: VERSION,
        protectedPaths: [
          ...(auditFile !== undefined ? [auditFile] : []),
          ...('invalid' in policy || policy.source === 'default' ? [] : [policy.source]),
          ...(root !== undefined ? [join(root, POLICY_FILE_NAME), join(root, 'pins')] : []),
        ],
      },
    );
    await log?.append(result.record);
  } finally {
    await log?.close();
  }
  const diagnostics: Diagnostic[] = sortDiagnostics(result.diagnostics);
  if (ctx.opts.json) {
    ctx.out(renderJson(resultJson({ ...result, diagnostics }, auditFile)).trimEnd());
  } else {
    if (result.stderr !== undefined) ctx.io.stderr.write(result.stderr.endsWith('\n') ? result.stderr : `${result.stderr}\n`);
    const shown = diagnostics.filter((d) => d.severity === 'error' || (!ctx.opts.quiet && d.severity === 'warning'));
    if (shown.length > 0) ctx.error(renderGrouped(shown, { style: ctx.style }));
    if (result.error !== undefined) ctx.error(renderJson({ error: result.error }).trimEnd());
    if (result.output !== undefined) ctx.out(renderJson(result.output).trimEnd());
  }
  return exitCodeFor(diagnostics);
}
