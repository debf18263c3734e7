/**
 * The four runtimes of the host-configuration attack suites (test/security/host-config*.test.ts),
 * each granted to write the whole project: a provenact module (fs_write_file), a built-in
 * (fs.write_patch), a WASI command (wasi-path-ops.wat: renames, directories) and a python process in
 * bubblewrap. Each suite plants what a program outside every sandbox would obey on its own; what
 * counts as untouched is the suite's own check, run after every attempt.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runTarget, type Attack, type Ran, type Scratch } from './attack.js';
import { entry, writeBundle } from './bundles.js';
import { fsToolBundle } from './fs-tool.js';
import { compileWat } from './wat.js';

/** The WASI errno a refused path operation answers. */
export const NOTCAPABLE = 76;
/** The policy every attack runs under: read and write the whole project. */
export const WRITE = 'skillctl.policy.yaml';
const ANY_IN = { properties: { path: {} } };
const OUT = { properties: { ok: {}, errno: {} } };
const PERMS = { 'fs.read': ['.'], 'fs.write': ['.'] };

/**
 * Writes the policy, an ordinary directory `staged/` for the WASI command to rename, and the three
 * bundles: `b/write` (fs_write_file of the path its input names), `b/wasi` (`wasiOps`, its command's
 * arguments) and `tool` (the python process).
 */
export async function writeHostAttackBundles(work: string, wasiOps: readonly string[]): Promise<void> {
  await writeFile(join(work, WRITE), 'version: 1\npermissions:\n  fs.read: [.]\n  fs.write: [.]\n');
  await mkdir(join(work, 'staged'));
  await mkdir(join(work, 'b', 'write'), { recursive: true });
  await writeFile(join(work, 'b', 'write', 'skill.wasm'), await compileWat('write-file'));
  await writeBundle(join(work, 'b', 'write'), { entrypoints: [entry({ runtime: 'wasm', command: 'skill.wasm', input_schema: ANY_IN, output_schema: OUT, error_schema: {}, requested_permissions: PERMS })] });
  await mkdir(join(work, 'b', 'wasi'), { recursive: true });
  await writeFile(join(work, 'b', 'wasi', 'skill.wasm'), await compileWat('wasi-path-ops'));
  await writeBundle(join(work, 'b', 'wasi'), {
    entrypoints: [entry({ runtime: 'wasm', command: ['skill.wasm', '_start', ...wasiOps], input_schema: ANY_IN, output_schema: OUT, error_schema: {}, requested_permissions: PERMS })],
  });
  await writeBundle(join(work, 'tool'), fsToolBundle());
}

/** A unified diff that creates `path` holding one line. */
export const createPatch = (path: string, text: string): string => `--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+${text}\n`;

type Check = (r: Ran, s: Scratch) => Promise<void>;

/** Where the python process's paths lie (default: the project), and what it is started with. */
export interface ProcPlace {
  readonly dir: (s: Scratch) => string;
  readonly env?: (s: Scratch) => Record<string, string>;
}

/** The attempts of one suite, each followed by `untouched`. */
export function hostAttacks(untouched: Check, place: ProcPlace = { dir: (s) => s.work }) {
  // Every runtime is started with the place's environment: a home's own paths are the run's only
  // when HOME names it.
  const env = (s: Scratch): { env?: Record<string, string> } => (place.env !== undefined ? { env: place.env(s) } : {});
  const write = (path: string) => (s: Scratch): Promise<Ran> => runTarget(join(s.work, 'b', 'write'), JSON.stringify(path), { cwd: s.work, ...env(s) });
  const patch = (diff: string) => (s: Scratch): Promise<Ran> => runTarget('fs.write_patch', { unified_diff: diff }, { cwd: s.work, policy: WRITE, ...env(s) });
  /** The python process in bubblewrap doing `ops`, their paths in `place` (the process runs in its bundle's copy). */
  const proc = (ops: string[][]) => (s: Scratch): Promise<Ran> =>
    runTarget(join(s.work, 'tool'), { ops: ops.map(([op, path, ...rest]) => [op, join(place.dir(s), path as string), ...rest]) }, {
      cwd: s.work,
      policy: WRITE,
      sandbox: 'bwrap',
      ...env(s),
    });
  const refused = (what: string, attempt: (s: Scratch) => Promise<Ran>): Attack => ({ what, code: 'POLICY_PATH_PROTECTED', exit: 3, attempt, check: untouched });
  return {
    write,
    patch,
    proc,
    refused,
    /** The WASI command's operations: NOTCAPABLE to the module for each (POLICY_PATH_PROTECTED in the record), the run itself a success. */
    wasi: (what: string, errno: readonly number[]): Attack => ({
      what,
      code: null,
      exit: 0,
      attempt: (s) => runTarget(join(s.work, 'b', 'wasi'), {}, { cwd: s.work, ...env(s) }),
      check: async (r, s) => {
        assert.deepEqual((r.output as { errno: number[] }).errno, errno);
        await untouched(r, s);
      },
    }),
    /** The process's writes on read-only mounts: the run succeeds, each write answers its errno. */
    procAnswers: (what: string, ops: string[][], ok: string): Attack => ({
      what,
      code: null,
      exit: 0,
      attempt: proc(ops),
      check: async (r, s) => {
        assert.deepEqual(r.output, { ok });
        await untouched(r, s);
      },
    }),
    /** The process plants what no mount can hold (the path did not exist): removed, the run denied and its output discarded. */
    procDenied: (what: string, ops: string[][]): Attack => ({
      what,
      code: 'POLICY_PATH_PROTECTED',
      exit: 3,
      attempt: proc(ops),
      check: async (r, s) => {
        assert.deepEqual([r.status, r.output], ['denied', null]);
        await untouched(r, s);
      },
    }),
  };
}
