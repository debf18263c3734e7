/**
 * `verify-pins`: every pin of a lock checked, plus what no single pin shows: duplicate pins and
 * skill folders (under the lock's skill roots) or packs in the project that the lock does not pin.
 * Read-only by construction: this module and everything it calls only read.
 */
import { basename, isAbsolute, relative } from 'node:path';
import { diag, hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import { comparePaths } from '../digest/index.js';
import { mapLimited } from '../map-limited.js';
import type { LockContext, ProvenactLockContext, SkillctlLockContext } from './context.js';
import { findAliases } from './aliases.js';
import { findPinnable, findProvenactBundles, PACKS_DIR } from './scan.js';
import { DEFAULT_SKILL_ROOTS, skillRootsOf } from './skill-roots.js';
import { DEFAULT_LOCK_PATH } from './model.js';
import { findUncovered } from './uncovered.js';
import { verifyPackPin, type PackVerification } from './verify-pack.js';
import { verifyProvenactPin, type ProvenactVerification } from './verify-provenact.js';
import { verifySkillPin, type PinVerification } from './verify-skill.js';

export interface LockVerification {
  readonly format: LockContext['format'];
  /** True only when every pin verified and nothing else was found. */
  readonly ok: boolean;
  readonly skills: readonly (PinVerification | ProvenactVerification)[];
  readonly packs: readonly PackVerification[];
  /** Skill folders (bundles, SKILL.md folders) and pack files the lock does not pin, relative to the project root. */
  readonly unpinned: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
}

export interface VerifyLockOptions {
  /** Called as pins complete, for progress display. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Pins verified at once (default 16). */
  readonly concurrency?: number;
  /**
   * Verifies every skill pin of the lock, results in lock order, calling `tick` once per pin.
   * Default: `verifySkillPin` on each, `concurrency` at a time, in this thread. The CLI passes one
   * that shares the pins out to worker threads.
   */
  readonly verifySkills?: (ctx: SkillctlLockContext, tick: () => void) => Promise<readonly PinVerification[]>;
  /**
   * The files are a git tree (the index or a commit): everything under the root is committed, so
   * files inside a pinned folder that its digests leave out are findings (uncovered.ts).
   */
  readonly committed?: boolean;
}

function tap<T>(value: T, tick: () => void): T {
  tick();
  return value;
}

/** Reports the second and later pins of one identity, and of one source. */
function duplicates<T>(entries: readonly T[], identity: (e: T) => string, source: (e: T) => string, what: (e: T) => string, base: string, file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const ids = new Map<string, number>();
  const sources = new Map<string, number>();
  entries.forEach((e, i) => {
    const id = identity(e);
    const src = source(e);
    const firstId = ids.get(id);
    if (firstId !== undefined) out.push(diag('PIN_DUPLICATE', `${what(e)} is pinned twice (also ${base}/${firstId})`, { file, pointer: `${base}/${i}` }));
    else ids.set(id, i);
    const firstSrc = sources.get(src);
    if (firstSrc !== undefined && firstId === undefined) {
      out.push(diag('PIN_DUPLICATE', `${src} is the source of two pins (also ${base}/${firstSrc})`, { file, pointer: `${base}/${i}/source` }));
    } else if (firstSrc === undefined) sources.set(src, i);
  });
  return out;
}

/** `hint` says how to pin one: skillctl pin for a skillctl lock; a provenact lock is written by its own tooling. */
function unpinned(found: readonly string[], pinned: ReadonlySet<string>, kind: string, hint: (path: string) => string = (p) => `skillctl pin ${p}`): Diagnostic[] {
  return found.filter((p) => !pinned.has(p)).map((p) => diag('PIN_UNPINNED', `${kind} ${p} is not pinned`, { file: p, hint: hint(p) }));
}

/**
 * `PIN_NESTED_LOCK` for each folder below the top that holds a lock: skillctl started there takes
 * it for the project root (fs/project.ts), so `run` and `mcp` there run what that lock pins, and
 * trust its keys, its `min_signers` and its policy. This verification reads none of it, and
 * `--base` compares only this lock: a change adding `tools/pins/skills.lock.json` with a key of
 * its own and a tampered skill under `tools/manifests/` passed every check.
 */
function nestedLocks(projects: readonly string[]): Diagnostic[] {
  return projects.map((p) =>
    diag('PIN_NESTED_LOCK', `${p}/ holds a lock of its own: skillctl started inside it runs the skills that lock pins, under its keys and policy, and this lock vouches for none of them`, {
      file: `${p}/${DEFAULT_LOCK_PATH}`,
      hint: `keep one lock for the repository: pin the skills of ${p}/ in this one (add its skill folders to skill_roots: skillctl pin --skill-roots) and remove ${p}/${DEFAULT_LOCK_PATH}`,
    }),
  );
}

/** Identical findings (a trust failure seen by every pin) are reported once. */
function unique(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = JSON.stringify([d.code, d.file, d.pointer, d.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The lock and the files beside it that it names (`beside`), relative to the project root. */
function lockAnchors(ctx: LockContext, beside: readonly string[]): string[] {
  const lockDir = relative(ctx.root, ctx.lockDir).split('\\').join('/');
  return lockDir.startsWith('..') || isAbsolute(lockDir) ? [] : [basename(ctx.lockFile), ...beside].map((f) => (lockDir === '' ? f : `${lockDir}/${f}`));
}

/**
 * The paths a checkout must hold exactly as spelt for the lock to mean there what it means here:
 * the skill roots, the packs folder, every pinned source, the lock and its keys file.
 */
function anchorsOf(ctx: SkillctlLockContext, roots: readonly string[]): string[] {
  const pins = lockAnchors(ctx, ctx.lock.keys_file !== undefined ? [ctx.lock.keys_file] : []);
  return [...roots, PACKS_DIR, ...ctx.lock.skills.map((p) => p.source), ...ctx.lock.packs.map((p) => p.source), ...pins];
}

async function verifySkillctl(ctx: SkillctlLockContext, opts: VerifyLockOptions): Promise<LockVerification> {
  const { lock } = ctx;
  const total = lock.skills.length + lock.packs.length;
  let done = 0;
  const tick = (): void => opts.onProgress?.(++done, total);
  const limit = opts.concurrency ?? 16;
  const [skills, packs] = await Promise.all([
    opts.verifySkills !== undefined ? opts.verifySkills(ctx, tick) : mapLimited(lock.skills, limit, async (p) => tap(await verifySkillPin(ctx, p), tick)),
    mapLimited(lock.packs, limit, async (p) => tap(await verifyPackPin(ctx, p), tick)),
  ]);
  const strip = (s: string): string => s.replace(/\/+$/, '');
  // Pinned directories whose listing found their manifest (or SKILL.md) are skill folders: the
  // scan need not read them.
  const lost = new Set<string>(['PIN_MISSING', 'PIN_SOURCE_INVALID', 'BUNDLE_NO_MANIFEST', 'BUNDLE_AMBIGUOUS_MANIFEST', 'AGENT_SKILL_MD_MISSING']);
  const known = new Set(skills.filter((r) => r.pin.archive_digest === undefined && !r.diagnostics.some((d) => lost.has(d.code))).map((r) => strip(r.pin.source)));
  // The roots come from the lock being verified, so a lock read from a commit is checked against
  // that commit's list.
  const roots = skillRootsOf(lock);
  // A git tree is a listing in memory: its nested agent roots are looked for in every folder.
  const pinnable = await findPinnable(ctx.root, ctx.ops, known, roots, opts.committed === true ? Infinity : undefined);
  const aliases = await findAliases(ctx.root, anchorsOf(ctx, roots), ctx.ops);
  const uncovered = opts.committed === true ? await findUncovered(ctx.root, [...known].sort(comparePaths), ctx.ops) : [];
  const missing = [
    ...unpinned(pinnable.bundles, new Set(lock.skills.map((p) => strip(p.source))), 'skill folder', (p) => {
      const nested = pinnable.nestedRoots.find((r) => p.startsWith(`${r}/`));
      // An agent working in the nested root's package loads it: pinned, and its root listed so `validate` and `prompt` see it too.
      return nested === undefined ? `skillctl pin ${p}` : `skillctl pin ${p}; ${nested} is a skill root below the project's top, which an agent working there loads: add it to skill_roots (skillctl pin --skill-roots)`;
    }),
    ...unpinned(pinnable.packs, new Set(lock.packs.map((p) => p.source)), 'behaviour pack'),
  ];
  const diagnostics = sortDiagnostics(
    unique([
      ...ctx.diagnostics,
      ...duplicates(lock.skills, (p) => `${p.skill_id}@${p.skill_version}`, (p) => strip(p.source), (p) => `${p.skill_id} ${p.skill_version}`, '/skills', ctx.lockFile),
      ...duplicates(lock.packs, (p) => `${p.profile}@${p.skill_pack_version}`, (p) => p.source, (p) => `pack ${p.profile} ${p.skill_pack_version}`, '/packs', ctx.lockFile),
      ...skills.flatMap((r) => r.diagnostics),
      ...packs.flatMap((r) => r.diagnostics),
      ...missing,
      ...pinnable.diagnostics,
      ...nestedLocks(pinnable.nestedProjects),
      ...aliases,
      ...uncovered,
    ]),
  );
  return {
    format: 'skillctl',
    ok: !hasErrors(diagnostics),
    skills,
    packs,
    unpinned: missing.map((d) => d.file as string).sort(comparePaths),
    diagnostics,
  };
}

async function verifyProvenact(ctx: ProvenactLockContext, opts: VerifyLockOptions): Promise<LockVerification> {
  const { lock } = ctx;
  let done = 0;
  const tick = (): void => opts.onProgress?.(++done, lock.skills.length);
  const [skills, bundles] = await Promise.all([
    mapLimited(lock.skills, opts.concurrency ?? 16, async (p) => tap(await verifyProvenactPin(ctx, p), tick)),
    findProvenactBundles(ctx.root, ctx.ops),
  ]);
  // A `Skills/<id>/<version>/skill.wasm` or `Pins/skills.lock.json` committed beside the pinned
  // ones is outside every bundle on Linux, and written over them by a macOS or Windows checkout.
  const aliases = await findAliases(ctx.root, [...DEFAULT_SKILL_ROOTS, PACKS_DIR, ...lock.skills.map((p) => p.bundle_dir), ...lockAnchors(ctx, [])], ctx.ops);
  const strip = (s: string): string => s.replace(/\/+$/, '');
  // A bundle's listing leaves out what a skill folder's digests do (node_modules/, .skillctl/,
  // what a .skillignore matches, itself included): in a commit, files in the bundle no check saw.
  const placed = skills.filter((r) => !r.diagnostics.some((d) => d.code === 'PIN_SOURCE_INVALID' || d.code === 'PIN_MISSING')).map((r) => strip(r.pin.bundle_dir));
  const uncovered = opts.committed === true ? await findUncovered(ctx.root, [...new Set(placed)].sort(comparePaths), ctx.ops) : [];
  // The folders an agent loads skills from hold skills whatever lock the project keeps: a
  // provenact lock names no skill roots, so the defaults are searched, as for a skillctl lock
  // without `skill_roots`. A provenact lock cannot pin a skill folder or a pack, so each found is
  // unpinned; the provenact bundles under skills/ are not skill folders (and are not read again).
  const provenact = new Set(bundles);
  const pinnable = await findPinnable(ctx.root, ctx.ops, provenact, DEFAULT_SKILL_ROOTS);
  const missing = [
    ...unpinned(
      bundles,
      new Set(lock.skills.map((p) => strip(p.bundle_dir))),
      'bundle',
      (p) => `add an entry for ${p} to the provenact lock with provenact's own tooling, or remove the directory (skillctl pin writes skillctl locks only)`,
    ),
    ...unpinned(
      pinnable.bundles.filter((p) => !provenact.has(p)),
      new Set(),
      'skill folder',
      (p) => `a provenact lock pins only provenact bundles (skills/<id>/<version>): remove ${p}, or keep the project's skills in a skillctl lock`,
    ),
    ...unpinned(pinnable.packs, new Set(), 'behaviour pack', (p) => `a provenact lock pins only provenact bundles: remove ${p}, or keep it in a project with a skillctl lock`),
  ];
  const diagnostics = sortDiagnostics(
    unique([
      ...ctx.diagnostics,
      ...duplicates(lock.skills, (p) => `${p.id}@${p.version}`, (p) => strip(p.bundle_dir), (p) => `${p.id} ${p.version}`, '/skills', ctx.lockFile),
      ...skills.flatMap((r) => r.diagnostics),
      ...missing,
      ...nestedLocks(pinnable.nestedProjects),
      ...aliases,
      ...uncovered,
    ]),
  );
  return {
    format: 'provenact',
    ok: !hasErrors(diagnostics),
    skills,
    packs: [],
    unpinned: missing.map((d) => d.file as string).sort(comparePaths),
    diagnostics,
  };
}

/** Verifies every pin of an opened lock. */
export function verifyLock(ctx: LockContext, opts: VerifyLockOptions = {}): Promise<LockVerification> {
  return ctx.format === 'skillctl' ? verifySkillctl(ctx, opts) : verifyProvenact(ctx, opts);
}
