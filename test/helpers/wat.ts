import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import wabtInit from 'wabt';
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
