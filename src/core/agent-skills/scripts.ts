/**
 * Which files of an Agent Skills folder are scripts an agent runs, and with what runtime: the
 * standard puts them under scripts/; the extension or the shebang line names the interpreter.
 */
import { posix } from 'node:path';
import type { BundleFile } from '../bundle/index.js';
import type { FileMode } from '../digest/index.js';
import { ID_MAX_LENGTH, ID_PATTERN } from '../manifest/index.js';

export type ScriptRuntime = 'python' | 'node' | 'shell';
export const SCRIPT_RUNTIMES: readonly ScriptRuntime[] = ['python', 'node', 'shell'];

const BY_EXTENSION: Readonly<Record<string, ScriptRuntime>> = {
  '.py': 'python',
  '.js': 'node',
  '.mjs': 'node',
  '.cjs': 'node',
  '.sh': 'shell',
  '.bash': 'shell',
};

const SHEBANG = /^#!\s*(?:\S*\/)?(?:env\s+(?:-\S+\s+)*)?(python3?|node|bash|sh|dash|zsh)\b/;

export interface ScriptFile {
  readonly path: string;
  readonly mode: FileMode;
  readonly runtime: ScriptRuntime;
}

export interface SkippedFile {
  readonly path: string;
  readonly reason: string;
}

/** Files under scripts/ that need their first line read to know their runtime. */
export function scriptCandidates(files: readonly BundleFile[]): BundleFile[] {
  return files.filter((f) => f.path.startsWith('scripts/'));
}

/** Classifies one file under scripts/ by name, then by its first line (`head`). */
export function classifyScript(path: string, head: string): ScriptRuntime | SkippedFile {
  const base = posix.basename(path);
  if (base.startsWith('_') || base.startsWith('.')) return { path, reason: 'a private module or hidden file' };
  const byExt = BY_EXTENSION[posix.extname(base).toLowerCase()];
  if (byExt !== undefined) return byExt;
  const m = SHEBANG.exec(head);
  if (m) {
    const interp = m[1] as string;
    return interp.startsWith('python') ? 'python' : interp === 'node' ? 'node' : 'shell';
  }
  return { path, reason: 'no known runtime from its extension or #! line' };
}

/** The argv that runs a script with its runtime, from the bundle root. */
export function scriptCommand(runtime: ScriptRuntime, path: string): string[] {
  switch (runtime) {
    case 'python':
      return ['python3', path];
    case 'node':
      return ['node', path];
    case 'shell':
      // Run directly (its #! line picks the shell), so no exec permission for a shell is needed.
      return [path];
    default: {
      const never: never = runtime;
      return never;
    }
  }
}

function sanitize(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
}

/** Distinct entrypoint ids: the file's stem, else its path under scripts/, else numbered. */
export function entrypointIds(paths: readonly string[]): string[] {
  const stems = paths.map((p) => sanitize(posix.basename(p, posix.extname(p))) || 'script');
  const count = new Map<string, number>();
  for (const s of stems) count.set(s, (count.get(s) ?? 0) + 1);
  const used = new Set<string>();
  return paths.map((p, i) => {
    let id = stems[i] as string;
    if ((count.get(id) ?? 0) > 1) id = sanitize(p.replace(/^scripts\//, '').replace(/\//g, '.')) || 'script';
    id = id.slice(0, ID_MAX_LENGTH).replace(/[^A-Za-z0-9]+$/, '');
    let unique = id;
    for (let n = 2; used.has(unique) || !ID_PATTERN.test(unique); n++) unique = `${id.slice(0, ID_MAX_LENGTH - 4) || 'script'}-${n}`;
    used.add(unique);
    return unique;
  });
}
