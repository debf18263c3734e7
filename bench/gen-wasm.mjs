// Writes the wasm benchmark's bundles into DIR (bench/wasm.sh): fixtures/wasm/<name>.wat compiled
// with wabt into <DIR>/<name>/skill.wasm, with a digest-correct skill.json around it (the tests'
// bundle writer, built into dist/test/helpers).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { entry, writeBundle } from '../dist/test/helpers/bundles.js';
import { compileWat } from '../dist/test/helpers/wat.js';

const [dir, ...names] = process.argv.slice(2);
for (const name of names) {
  const out = join(dir, name);
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'skill.wasm'), await compileWat(name));
  const anyValue = { input_schema: { properties: { path: {} } }, output_schema: { properties: { ok: {} } }, error_schema: {} };
  await writeBundle(out, { skill_id: `bench.${name.replace(/-/g, '.')}`, entrypoints: [entry({ runtime: 'wasm', command: 'skill.wasm', runtime_limits: { max_execution_time: 60, max_memory: 16 }, ...anyValue })] });
}
