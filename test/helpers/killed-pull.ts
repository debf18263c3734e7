/**
 * A pull that is killed (SIGKILL, sent to itself) right after its Nth rename, run as a child
 * process by the crash tests: the project is left exactly as a pull killed there leaves it.
 *
 *   node killed-pull.js ROOT OUT_DIR N NAME:BODY...
 *
 * Renames are counted through node:fs itself, patched before skillctl's modules are loaded
 * (syncBuiltinESMExports carries the patch to their `import { rename }`): the journal's and the
 * origin records' atomic writes, and each folder moved aside or into place. N = 0 never kills:
 * the pull runs to its end (or waits for a lock the test holds, until the test kills it).
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type * as Fs from 'node:fs';

const require = createRequire(import.meta.url);
const fs = require('node:fs') as typeof Fs;
const [root, outDir, after, ...specs] = process.argv.slice(2) as [string, string, string, ...string[]];
let renames = 0;
const counted = (): void => {
  if (++renames === Number(after)) process.kill(process.pid, 'SIGKILL');
};
const renameCb = fs.rename;
fs.rename = ((from: Fs.PathLike, to: Fs.PathLike, done: Fs.NoParamCallback) =>
  renameCb(from, to, (err) => {
    if (err === null) counted();
    done(err);
  })) as typeof fs.rename;
const renamePromise = fs.promises.rename;
fs.promises.rename = async (from, to) => {
  await renamePromise(from, to);
  counted();
};
syncBuiltinESMExports();

const { placeSkills } = await import('../../src/core/mcp-skills/index.js');
const { pulledSkill } = await import('./pulled-skill.js');
const { testFileLock } = await import('./file-lock.js');
const skills = specs.map((s) => pulledSkill(s.slice(0, s.indexOf(':')), s.slice(s.indexOf(':') + 1)));
const r = await placeSkills(skills, {
  root,
  outDir,
  server: { command: ['srv'] },
  localFolders: async () => [],
  fileLock: testFileLock(),
});
process.stdout.write(`${JSON.stringify({ ok: r.ok, renames })}\n`);
