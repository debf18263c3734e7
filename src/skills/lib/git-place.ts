/**
 * Where git will read the repository, and whether every such place is inside the grant. A
 * repository can send git elsewhere: `.git` may be a file (`gitdir: /elsewhere`), `core.worktree`
 * may name another directory, `objects/info/alternates` another object store (whose blobs a diff
 * would then print), `include.path` another configuration file, and any of `.git`'s entries may be
 * a symlink. With bubblewrap what is not granted does not exist for git; with `--sandbox none`
 * nothing would stop it, so each place is put to the policy (`checkRead`, which resolves symlinks)
 * and a place outside the grant ends the skill with the gate's denial.
 */
import { isAbsolute, join, resolve } from 'node:path';
import type { BuiltinContext, BuiltinOutcome } from '../../core/run/index.js';
import { isFailure } from '../../core/policy/index.js';
import { denied, selfDenied } from './outcome.js';

/** `git rev-parse` arguments whose answer parsePlace reads. */
export const PLACE_ARGS = ['rev-parse', '--is-bare-repository', '--path-format=absolute', '--git-dir', '--git-common-dir', '--show-cdup'];

export interface Place {
  readonly gitDir: string;
  readonly commonDir: string;
  /** The work tree's top, absent for a bare repository or from inside the git directory. */
  readonly top: string | undefined;
  /** What relative configuration origins are relative to: git's directory once it has set up. */
  readonly base: string;
}

/**
 * Parses PLACE_ARGS' answer, run in `cwd`: `true|false`, two absolute paths, then the way to the
 * top (relative, or absolute when `cwd` is outside a `core.worktree`), absent when there is no
 * work tree. Any other shape (a path holding a newline adds lines) is undefined: refused.
 */
export function parsePlace(out: string, cwd: string): Place | undefined {
  if (!out.endsWith('\n')) return undefined;
  const [bare, gitDir, commonDir, cdup, ...rest] = out.slice(0, -1).split('\n');
  if (rest.length > 0 || gitDir === undefined || commonDir === undefined || !isAbsolute(gitDir) || !isAbsolute(commonDir)) return undefined;
  if (bare !== 'false' && !(bare === 'true' && cdup === undefined)) return undefined;
  if (cdup === undefined) return { gitDir, commonDir, top: undefined, base: cwd };
  const top = resolve(cwd, cdup);
  // git moves to the top when it starts inside the work tree; outside it, it stays where it was.
  return { gitDir, commonDir, top, base: isAbsolute(cdup) ? cwd : top };
}

/**
 * Entries of the git directories that git.status and git.diff read, each of which may be a symlink
 * leading out: objects, refs, the index, HEAD, excludes and attributes under info/, grafts, shallow.
 */
const GIT_DIR_ENTRIES = ['HEAD', 'index', 'objects', 'refs', 'packed-refs', 'info', 'info/exclude', 'info/attributes', 'info/grafts', 'shallow'];

/** git follows alternates of alternates up to this depth. */
const ALTERNATES_DEPTH = 5;
const ALTERNATES_MAX = 64 * 1024;

type Verdict = BuiltinOutcome | undefined;

/**
 * A repository the skill will not run git on: a refusal (exit 3, in the audit record like the
 * gate's own), since running would mean running with part of what the repository names unseen.
 */
export function refuse(reason: string): BuiltinOutcome {
  return selfDenied('exec', 'SKILL_GIT_CONFIG_REFUSED', `exec: ${reason}`, 'exec git');
}

async function readable(ctx: BuiltinContext, path: string, what: string): Promise<Verdict> {
  const d = await ctx.policy.checkRead(path);
  return d.allowed ? undefined : denied(d, `read ${what} ${path}`);
}

/**
 * The object stores `objects/info/alternates` names, recursively, each put to the policy. The file
 * is read through the checked layer (bounded, regular files only); a quoted entry (C-style, for
 * names with special characters) is refused rather than unquoted.
 */
async function checkAlternates(ctx: BuiltinContext, objects: string, depth: number, seen: Set<string>): Promise<Verdict> {
  if (seen.has(objects)) return undefined;
  seen.add(objects);
  const file = await ctx.files.openFile(join(objects, 'info', 'alternates'));
  if (isFailure(file)) {
    if (file.kind === 'missing' || file.kind === 'not-dir') return undefined;
    if (file.kind === 'denied') return denied(file.decision, `read ${join(objects, 'info', 'alternates')}`);
    return refuse(`${join(objects, 'info', 'alternates')} cannot be read (${file.kind === 'error' ? file.code : 'not a regular file'})`);
  }
  let bytes: Buffer;
  try {
    if (file.size > ALTERNATES_MAX) return refuse(`${file.real} is larger than ${ALTERNATES_MAX} bytes`);
    bytes = await file.read(ALTERNATES_MAX + 1);
  } finally {
    await file.close();
  }
  if (bytes.length > ALTERNATES_MAX) return refuse(`${file.real} is larger than ${ALTERNATES_MAX} bytes`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return refuse(`${file.real} names a path that is not UTF-8`);
  }
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('"')) return refuse(`${file.real} holds a quoted path, which is not read`);
    if (depth >= ALTERNATES_DEPTH) return refuse(`${file.real} nests alternates deeper than git follows`);
    const store = resolve(objects, line);
    const verdict = (await readable(ctx, store, 'the alternate object store')) ?? (await checkAlternates(ctx, store, depth + 1, seen));
    if (verdict !== undefined) return verdict;
  }
  return undefined;
}

/** Every place git would read, put to the policy; the first refusal, or undefined. */
export async function checkPlace(ctx: BuiltinContext, place: Place, configFiles: readonly string[]): Promise<Verdict> {
  const paths = new Map<string, string>([
    [place.gitDir, 'the git directory'],
    [place.commonDir, 'the common git directory'],
  ]);
  if (place.top !== undefined) paths.set(place.top, 'the work tree');
  for (const dir of [place.gitDir, place.commonDir]) for (const e of GIT_DIR_ENTRIES) if (!paths.has(join(dir, e))) paths.set(join(dir, e), 'the git directory entry');
  for (const f of configFiles) {
    const path = resolve(place.base, f);
    if (!paths.has(path)) paths.set(path, 'the configuration file');
  }
  for (const [path, what] of paths) {
    const verdict = await readable(ctx, path, what);
    if (verdict !== undefined) return verdict;
  }
  return checkAlternates(ctx, join(place.commonDir, 'objects'), 0, new Set());
}
