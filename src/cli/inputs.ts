/**
 * Expands the PATH|GLOB|- arguments of a command into targets: a manifest file, a bundle
 * directory searched for bundles (skill.yaml / skill.json) and Agent Skills folders (SKILL.md),
 * a glob (fast-glob), or stdin.
 */
import { stat } from '../core/fs/callback-fs.js';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import { diag, type Diagnostic } from '../core/diagnostics.js';
import { errnoCode } from '../core/errors.js';
import { MANIFEST_NAMES } from '../core/bundle/index.js';
import { SKILL_MD_NAMES } from '../core/agent-skills/index.js';
import { archiveFormatOf } from '../core/archive/format.js';

export type Target =
  /** A manifest at a bundle root: validated with its bundle. */
  | { readonly kind: 'bundle'; readonly dir: string }
  /** A manifest file outside any bundle layout (no content digest check). */
  | { readonly kind: 'file'; readonly file: string }
  /** An Agent Skills folder (a SKILL.md at its root). */
  | { readonly kind: 'agent-skill'; readonly dir: string }
  /** An archive named as such (`.tgz` from pack, a `.skill` file): read with the archive guards, never unpacked. */
  | { readonly kind: 'archive'; readonly file: string }
  | { readonly kind: 'stdin' };

const GLOB_CHARS = /[*?[\]{}!]/;
const SKIP = ['**/node_modules/**', '**/.git/**', '**/.skillctl/**'];

function display(cwd: string, p: string): string {
  const rel = relative(cwd, p);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? p : rel;
}

/** The file that makes a directory a capability bundle of the registry. */
const CAPABILITY_FILE = 'capability.json';

function isSkillMd(path: string): boolean {
  return (SKILL_MD_NAMES as readonly string[]).includes(basename(path));
}

/** Bundle and Agent Skills folders under `dir`, each kind sorted. */
async function searchDir(cwd: string, dir: string): Promise<Target[]> {
  const fg = (await import('fast-glob')).default;
  const found = await fg(
    [...MANIFEST_NAMES, ...SKILL_MD_NAMES, CAPABILITY_FILE].map((n) => `**/${n}`),
    { cwd: resolve(cwd, dir), ignore: SKIP, followSymbolicLinks: false, onlyFiles: true, dot: true, suppressErrors: false, caseSensitiveMatch: true },
  );
  // A capability bundle (seed 004) also has a skill.md, of its own format: it is checked by
  // `skillctl registry validate`, not as an Agent Skills folder.
  const capabilities = new Set(found.filter((f) => basename(f) === CAPABILITY_FILE).map((f) => dirname(f)));
  const dirs = (kind: 'bundle' | 'agent-skill'): Target[] =>
    [
      ...new Set(
        found
          .filter((f) => basename(f) !== CAPABILITY_FILE && isSkillMd(f) === (kind === 'agent-skill'))
          .filter((f) => kind === 'bundle' || !capabilities.has(dirname(f)))
          .map((f) => display(cwd, resolve(cwd, dir, dirname(f)))),
      ),
    ]
      .sort()
      .map((d) => ({ kind, dir: d }));
  return [...dirs('bundle'), ...dirs('agent-skill')];
}

export interface Expanded {
  readonly targets: readonly Target[];
  readonly diagnostics: readonly Diagnostic[];
}

export async function expandInputs(cwd: string, args: readonly string[]): Promise<Expanded> {
  const targets: Target[] = [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  const add = (t: Target): void => {
    const key = t.kind === 'stdin' ? '-' : t.kind === 'file' || t.kind === 'archive' ? `f:${t.file}` : `${t.kind}:${t.dir}`;
    if (!seen.has(key)) {
      seen.add(key);
      targets.push(t);
    }
  };
  for (const arg of args) {
    if (arg === '-') {
      add({ kind: 'stdin' });
      continue;
    }
    const abs = resolve(cwd, arg);
    let st;
    try {
      st = await stat(abs);
    } catch (err) {
      const code = errnoCode(err);
      if (code === 'ENOENT' && GLOB_CHARS.test(arg)) {
        const fg = (await import('fast-glob')).default;
        let matches: string[] = [];
        try {
          matches = await fg(arg, { cwd, ignore: SKIP, followSymbolicLinks: false, dot: true, onlyFiles: false, markDirectories: true });
        } catch (e) {
          diagnostics.push(diag('INPUT_UNREADABLE', `cannot expand ${arg}: ${errnoCode(e) ?? String(e)}`, { file: arg }));
          continue;
        }
        if (matches.length === 0) diagnostics.push(diag('NO_INPUT', `no files match ${arg}`, { file: arg }));
        for (const m of matches.sort()) {
          if (m.endsWith('/')) {
            for (const t of await searchDir(cwd, m)) add(t);
          } else if (isSkillMd(m)) {
            add({ kind: 'agent-skill', dir: display(cwd, resolve(cwd, dirname(m))) });
          } else if ((MANIFEST_NAMES as readonly string[]).includes(basename(m))) {
            add({ kind: 'bundle', dir: display(cwd, resolve(cwd, dirname(m))) });
          } else if (archiveFormatOf(m) !== undefined) {
            add({ kind: 'archive', file: m });
          } else {
            add({ kind: 'file', file: m });
          }
        }
        continue;
      }
      const why = code === 'ENOENT' ? 'does not exist' : code === 'ELOOP' ? 'is a symbolic link loop' : `cannot be read (${code ?? String(err)})`;
      diagnostics.push(diag(code === 'ENOENT' ? 'INPUT_NOT_FOUND' : 'INPUT_UNREADABLE', `${arg} ${why}`, { file: arg }));
      continue;
    }
    if (st.isDirectory()) {
      let found: Target[];
      try {
        found = await searchDir(cwd, arg);
      } catch (e) {
        diagnostics.push(diag('INPUT_UNREADABLE', `cannot search ${arg}: ${errnoCode(e) ?? String(e)}`, { file: arg }));
        continue;
      }
      if (found.length === 0) diagnostics.push(diag('NO_INPUT', `no skill.yaml, skill.json or SKILL.md under ${arg}`, { file: arg }));
      for (const t of found) add(t);
    } else if (isSkillMd(arg)) {
      add({ kind: 'agent-skill', dir: display(cwd, dirname(abs)) });
    } else if ((MANIFEST_NAMES as readonly string[]).includes(basename(arg))) {
      add({ kind: 'bundle', dir: display(cwd, dirname(abs)) });
    } else if (archiveFormatOf(arg) !== undefined) {
      add({ kind: 'archive', file: arg });
    } else {
      add({ kind: 'file', file: arg });
    }
  }
  return { targets, diagnostics };
}
