/**
 * Expands the PATH|GLOB|- arguments of a command into manifest targets: a manifest file, a
 * bundle directory searched for bundles, a glob (fast-glob), or stdin.
 */
import { stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import { diag, type Diagnostic } from '../core/diagnostics.js';
import { errnoCode } from '../core/errors.js';
import { MANIFEST_NAMES } from '../core/bundle/index.js';

export type Target =
  /** A manifest at a bundle root: validated with its bundle. */
  | { readonly kind: 'bundle'; readonly dir: string }
  /** A manifest file outside any bundle layout (no content digest check). */
  | { readonly kind: 'file'; readonly file: string }
  | { readonly kind: 'stdin' };

const GLOB_CHARS = /[*?[\]{}!]/;
const SKIP = ['**/node_modules/**', '**/.git/**', '**/.skillctl/**'];

function display(cwd: string, p: string): string {
  const rel = relative(cwd, p);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? p : rel;
}

async function searchDir(cwd: string, dir: string): Promise<string[]> {
  const fg = (await import('fast-glob')).default;
  const found = await fg(
    MANIFEST_NAMES.map((n) => `**/${n}`),
    { cwd: resolve(cwd, dir), ignore: SKIP, followSymbolicLinks: false, onlyFiles: true, dot: true, suppressErrors: false },
  );
  return [...new Set(found.map((f) => display(cwd, resolve(cwd, dir, dirname(f)))))];
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
    const key = t.kind === 'stdin' ? '-' : t.kind === 'bundle' ? `d:${t.dir}` : `f:${t.file}`;
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
            for (const d of await searchDir(cwd, m)) add({ kind: 'bundle', dir: d });
          } else if ((MANIFEST_NAMES as readonly string[]).includes(basename(m))) {
            add({ kind: 'bundle', dir: display(cwd, resolve(cwd, dirname(m))) });
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
      let dirs: string[];
      try {
        dirs = await searchDir(cwd, arg);
      } catch (e) {
        diagnostics.push(diag('INPUT_UNREADABLE', `cannot search ${arg}: ${errnoCode(e) ?? String(e)}`, { file: arg }));
        continue;
      }
      if (dirs.length === 0) diagnostics.push(diag('NO_INPUT', `no skill.yaml or skill.json under ${arg}`, { file: arg }));
      for (const d of dirs.sort()) add({ kind: 'bundle', dir: d });
    } else if ((MANIFEST_NAMES as readonly string[]).includes(basename(arg))) {
      add({ kind: 'bundle', dir: display(cwd, dirname(abs)) });
    } else {
      add({ kind: 'file', file: arg });
    }
  }
  return { targets, diagnostics };
}
