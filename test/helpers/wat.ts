import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import wabtInit from 'wabt';
import { entry, writeBundle } from './bundles.js';
import { ROOT } from './paths.js';

type Wabt = Awaited<ReturnType<typeof wabtInit>>;
let wabt: Promise<Wabt> | undefined;

/** Proposals wabt reads besides those compileWat always enables (bulk memory, mutable globals). */
export interface WatFeatures {
  readonly relaxed_simd?: boolean;
}

/** A fixture of fixtures/wasm/, compiled from its WAT text (the wabt package). */
export async function compileWat(name: string, features: WatFeatures = {}): Promise<Uint8Array> {
  wabt ??= wabtInit();
  const w = await wabt;
  const text = await readFile(join(ROOT, 'fixtures', 'wasm', `${name}.wat`), 'utf8');
  const mod = w.parseWat(`${name}.wat`, text, { bulk_memory: true, mutable_globals: true, ...features });
  try {
    return new Uint8Array(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}

/** What a one-entrypoint wasm bundle of writeWasmBundle runs with. */
export interface WasmBundle {
  /** The module's arguments after `skill.wasm` (an export to call, then WASI's argv). */
  readonly args?: readonly string[];
  readonly limits?: Record<string, string>;
  readonly perms?: Record<string, readonly string[]>;
}

/** Writes `dir` as a bundle whose one entrypoint runs the fixture `name` (compiled as skill.wasm); returns writeBundle's path. */
export async function writeWasmBundle(dir: string, name: string, b: WasmBundle = {}): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'skill.wasm'), await compileWat(name));
  const command = b.args === undefined ? 'skill.wasm' : ['skill.wasm', ...b.args];
  const perms = b.perms === undefined ? {} : { requested_permissions: b.perms };
  const schemas = { input_schema: { properties: { path: {} } }, output_schema: { properties: { ok: {} } }, error_schema: {} };
  return writeBundle(dir, { entrypoints: [entry({ runtime: 'wasm', command, runtime_limits: b.limits ?? {}, ...perms, ...schemas })] });
}
