/** Temporary projects and bundles for pin, pack and verify tests. */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fixture } from './paths.js';

export async function tempDir(prefix = 'skillctl-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** A project with manifests/hello (a valid bundle) and manifests/packs/daily.yaml, no lock yet. */
export async function makeProject(): Promise<string> {
  const root = await tempDir('skillctl-project-');
  await cp(fixture('pins', 'project'), root, { recursive: true });
  return root;
}

/** Every file under `dir` with its bytes and mtime, for "nothing changed" assertions. */
export async function snapshot(dir: string): Promise<Map<string, { bytes: string; mtimeMs: number; mode: number }>> {
  const out = new Map<string, { bytes: string; mtimeMs: number; mode: number }>();
  const walk = async (rel: string): Promise<void> => {
    const abs = join(dir, rel);
    const st = await stat(abs);
    if (st.isDirectory()) {
      out.set(`${rel}/`, { bytes: '', mtimeMs: st.mtimeMs, mode: st.mode });
      for (const name of (await readdir(abs)).sort()) await walk(rel === '' ? name : `${rel}/${name}`);
    } else {
      out.set(rel, { bytes: (await readFile(abs)).toString('base64'), mtimeMs: st.mtimeMs, mode: st.mode });
    }
  };
  await walk('');
  return out;
}

export async function writeText(path: string, text: string): Promise<void> {
  await writeFile(path, text);
}

/** Fixture projects made during a suite, removed by `cleanup` (call it from `after`). */
export function projects(): { project: () => Promise<string>; cleanup: () => Promise<void> } {
  const roots: string[] = [];
  return {
    project: async () => {
      const r = await makeProject();
      roots.push(r);
      return r;
    },
    cleanup: async () => {
      await Promise.all(roots.map(removeDir));
    },
  };
}

/** A tree to make: each file with its text, each folder (empty unless a file lies in it). */
export interface TreeSpec {
  readonly files?: Readonly<Record<string, string>>;
  readonly dirs?: readonly string[];
}

/** Temporary trees made during a suite, removed by `cleanup` (call it from `after`). */
export function tempTrees(): { tree: (prefix: string, spec: TreeSpec) => Promise<string>; cleanup: () => Promise<void> } {
  const roots: string[] = [];
  return {
    tree: async (prefix, spec) => {
      const root = await tempDir(prefix);
      roots.push(root);
      for (const d of spec.dirs ?? []) await mkdir(join(root, d), { recursive: true });
      for (const [f, text] of Object.entries(spec.files ?? {})) {
        await mkdir(dirname(join(root, f)), { recursive: true });
        await writeFile(join(root, f), text);
      }
      return root;
    },
    cleanup: async () => {
      await Promise.all(roots.map(removeDir));
    },
  };
}

/** Edits a bundle's manifest text and writes it back with correct digests (as validate --fix). */
export async function editManifest(dir: string, edit: (text: string) => string): Promise<void> {
  const { fixDigests, validateBundle } = await import('../../src/core/manifest/index.js');
  const manifest = join(dir, 'skill.yaml');
  await writeFile(manifest, edit(await readFile(manifest, 'utf8')));
  const fixed = fixDigests(await validateBundle(dir)).text;
  if (fixed !== undefined) await writeFile(manifest, fixed);
}
