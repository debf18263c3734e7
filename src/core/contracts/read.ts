/** Reads the contract files of --contracts directories: every *.json file directly inside, in byte order. */
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { diag } from '../diagnostics.js';
import { comparePaths } from '../digest/index.js';
import { errnoCode, SkillctlError } from '../errors.js';
import { describeRefusal, readBounded } from '../fs/read-bounded.js';
import { CONTRACT_MAX_BYTES, type ContractSource } from './model.js';

async function readOne(abs: string, file: string, entry: Dirent): Promise<ContractSource> {
  const problem = (message: string): ContractSource => ({ origin: 'user', file, problem: diag('CONTRACT_MALFORMED', message, { file }) });
  // A link could make a contract directory read files it does not hold; only regular files count.
  if (!entry.isFile()) return problem(`${file} is not a regular file; contracts are read from regular files only`);
  // The listing saw a regular file; it is read refusing a link or FIFO swapped in since (read-bounded.ts).
  const r = await readBounded(abs, { maxBytes: CONTRACT_MAX_BYTES, followLinks: false });
  if (r.ok) return { origin: 'user', file, bytes: r.bytes };
  return problem(r.reason === 'too-large' ? `${file} is ${r.size} bytes; a contract may have at most ${CONTRACT_MAX_BYTES}` : describeRefusal(r, file));
}

export async function readContractDirs(dirs: readonly string[], cwd: string): Promise<ContractSource[]> {
  const out: ContractSource[] = [];
  for (const dir of dirs) {
    const abs = isAbsolute(dir) ? dir : join(cwd, dir);
    let entries: Dirent[];
    try {
      if (!(await stat(abs)).isDirectory()) throw new SkillctlError('INPUT_UNREADABLE', `contracts directory ${dir} is not a directory`);
      entries = await readdir(abs, { withFileTypes: true });
    } catch (err) {
      if (err instanceof SkillctlError) throw err;
      const code = errnoCode(err);
      throw new SkillctlError(code === 'ENOENT' ? 'INPUT_NOT_FOUND' : 'INPUT_UNREADABLE', `contracts directory ${dir} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? String(err)})`}`, { cause: err });
    }
    const files = entries.filter((e) => e.name.endsWith('.json')).sort((a, b) => comparePaths(a.name, b.name));
    for (const e of files) out.push(await readOne(join(abs, e.name), join(dir, e.name), e));
  }
  return out;
}
