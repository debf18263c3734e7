import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import wabtInit from 'wabt';
import { ROOT } from './paths.js';

type Wabt = Awaited<ReturnType<typeof wabtInit>>;
let wabt: Promise<Wabt> | undefined;

/** A fixture of fixtures/wasm/, compiled from its WAT text (the wabt package). */
export async function compileWat(name: string): Promise<Uint8Array> {
  wabt ??= wabtInit();
  const w = await wabt;
  const text = await readFile(join(ROOT, 'fixtures', 'wasm', `${name}.wat`), 'utf8');
  const mod = w.parseWat(`${name}.wat`, text, { bulk_memory: true, mutable_globals: true });
  try {
    return new Uint8Array(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}
