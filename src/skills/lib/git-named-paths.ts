/**
 * The paths a repository's git configuration names for the user's own git to run or read as
 * configuration: the hooks folder (`core.hooksPath`), included configuration files, the template
 * folder `git init` copies hooks from, and every path a program-valued key spells out (filters,
 * diff and merge drivers, fsmonitor, editors, pagers, credential helpers, `!` aliases). `.git/config`
 * itself is protected by name, but a `core.hooksPath = tools/hooks` or a `filter.x.clean =
 * ./scripts/clean.sh` points into the work tree, where a skill granted that folder could plant the
 * program the user's next commit or checkout runs, outside every sandbox. A run protects these
 * paths as it protects its policy file.
 *
 * Commands are shell text: a path is seen only as the value spells it (a word holding a `/`,
 * alone or after `=`), not one a command reaches through `cd`, a variable or its PATH. Paths that
 * hold the work tree's top (a word `/`, or a hooks folder at the top itself) are never protected
 * whole, which would take away every write grant: a hooks folder there protects the hooks' names.
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import { within } from '../../core/fs/within.js';
import { canonicalKey, neutralise, type ConfigEntry } from './git-config.js';

/** githooks(5): what git runs from the hooks folder. */
const HOOK_NAMES = [
  'applypatch-msg', 'pre-applypatch', 'post-applypatch', 'pre-commit', 'pre-merge-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit',
  'pre-rebase', 'post-checkout', 'post-merge', 'pre-push', 'pre-receive', 'update', 'proc-receive', 'post-receive', 'post-update',
  'reference-transaction', 'push-to-checkout', 'pre-auto-gc', 'post-rewrite', 'sendemail-validate', 'fsmonitor-watchman', 'post-index-change',
  'p4-changelist', 'p4-prepare-changelist', 'p4-post-changelist', 'p4-pre-submit',
];

interface Where {
  /** The work tree's top, absolute; undefined outside a repository. */
  readonly top: string | undefined;
  /** The user's home, for `~/`. */
  readonly home: string | undefined;
}

/** A path as git reads one from its configuration (`~/` is the home), relative to `base`; undefined when it cannot be placed. */
function placed(value: string, base: string | undefined, w: Where): string | undefined {
  if (value.startsWith('~/')) return w.home !== undefined ? resolve(w.home, value.slice(2)) : undefined;
  if (isAbsolute(value)) return resolve(value);
  return base !== undefined ? resolve(base, value) : undefined;
}

/** The words of a command that spell a path: they hold a `/` (after an `=`, the part after it), and no variable. */
function pathWords(command: string): string[] {
  return command
    .replace(/^!/, '')
    .split(/[\s;|&()<>`'"]+/)
    .map((w) => w.slice(w.lastIndexOf('=') + 1))
    .filter((w) => w.includes('/') && !w.includes('$'));
}

/**
 * Whether `e` names a program git may run: the keys skillctl's own git neutralises
 * (git-config.ts). Asked through `neutralise`, not a second list: git-config.ts is code of the
 * shipped git skills, pinned and signed with them.
 */
function namesProgram(e: ConfigEntry): boolean {
  const n = neutralise([e]);
  return n.ok && n.overrides.some(([k]) => k === e.key);
}

/** The file a listed entry came from, absolute (git prints the local ones relative to the top). */
function originFile(e: ConfigEntry, w: Where): string | undefined {
  return e.origin.startsWith('file:') ? placed(e.origin.slice('file:'.length), w.top, w) : undefined;
}

/** Every path `entries` (git's listing) names for git to run or read as configuration; sorted, each once. */
export function gitNamedPaths(entries: readonly ConfigEntry[], w: Where): string[] {
  const out = new Set<string>();
  const add = (p: string | undefined): void => {
    if (p !== undefined) out.add(p);
  };
  for (const e of entries) {
    if (e.scope === 'command' || e.key === undefined || e.value === undefined || e.value === '') continue;
    add(originFile(e, w));
    const key = canonicalKey(e.key).toLowerCase();
    const section = key.slice(0, key.indexOf('.'));
    const name = key.slice(key.lastIndexOf('.') + 1);
    if (key === 'core.hookspath') {
      const dir = placed(e.value, w.top, w);
      if (dir !== undefined && w.top !== undefined && within(w.top, dir)) for (const hook of HOOK_NAMES) add(resolve(dir, hook));
      else add(dir);
    } else if ((section === 'include' || section === 'includeif') && name === 'path') {
      // Relative to the file that includes it.
      const from = originFile(e, w);
      add(placed(e.value, from !== undefined ? dirname(from) : undefined, w));
    } else if (key === 'init.templatedir') {
      add(placed(e.value, w.top, w));
    } else if (namesProgram(e) || ((section === 'alias' || (section === 'submodule' && name === 'update')) && e.value.startsWith('!'))) {
      // git runs these from the top of the work tree.
      for (const word of pathWords(e.value)) add(placed(word, w.top, w));
    }
  }
  const top = w.top;
  return [...out].filter((p) => top === undefined || !within(top, p)).sort();
}
