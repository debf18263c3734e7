/**
 * Which registries a command uses (DESIGN.md, "Where things are found"): `--registry DIR`, else
 * `$SKILLCTL_REGISTRY` (the caller reads the environment and passes the value), each exactly that
 * one registry; else `.skillctl/registry` in the project root, when it exists, over the registry
 * shipped inside the skillctl package (layers.ts); else the shipped one alone, which is read-only.
 * Publishing in a project creates `.skillctl/registry`.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { findProjectRoot } from '../fs/index.js';

export type RegistrySource = 'flag' | 'env' | 'project' | 'shipped';

export interface RegistryLocation {
  readonly dir: string;
  readonly source: RegistrySource;
  /** False for the shipped registry: publishing there is refused. */
  readonly writable: boolean;
}

export interface LocateOptions {
  /** The working directory relative paths resolve against. */
  readonly cwd: string;
  /** `--registry DIR`, when given. */
  readonly flag?: string;
  /** The value of SKILLCTL_REGISTRY, when set and non-empty. */
  readonly env?: string;
  /** The registry shipped with the package (manifests/registry). */
  readonly shipped: string;
  /** For a command that writes: use the project's registry even before it exists. */
  readonly forWrite?: boolean;
}

/** Where the project's registry lives, relative to the project root. */
export const PROJECT_REGISTRY = join('.skillctl', 'registry');

async function isDir(p: string): Promise<boolean> {
  return stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** The registry a command writes to (with `forWrite`), or the upper layer of the one it reads. */
export async function locateRegistry(opts: LocateOptions): Promise<RegistryLocation> {
  const abs = (p: string): string => (isAbsolute(p) ? p : resolve(opts.cwd, p));
  if (opts.flag !== undefined && opts.flag !== '') return { dir: abs(opts.flag), source: 'flag', writable: true };
  if (opts.env !== undefined && opts.env !== '') return { dir: abs(opts.env), source: 'env', writable: true };
  const root = await findProjectRoot(opts.cwd);
  if (root !== undefined) {
    const dir = join(root, PROJECT_REGISTRY);
    if (opts.forWrite === true || (await isDir(dir))) return { dir, source: 'project', writable: true };
  }
  return { dir: opts.shipped, source: 'shipped', writable: false };
}

/**
 * The registries a command reads, upper first. A registry named explicitly (`--registry`,
 * `$SKILLCTL_REGISTRY`) is exactly that registry: a user who names one expects to see what it
 * holds, nothing more. The project's registry is a layer over the shipped one: publishing into a
 * project adds capabilities to the built-in ones. With `forWrite`, the first layer is where a
 * publish writes (the project's, even before it exists) and the rest are what it may shadow.
 */
export async function locateRegistryLayers(opts: LocateOptions): Promise<RegistryLocation[]> {
  const top = await locateRegistry(opts);
  if (top.source !== 'project') return [top];
  return [top, { dir: opts.shipped, source: 'shipped', writable: false }];
}
