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

/** The entries of a --contracts directory; a directory that cannot be listed stops the command. */
async function listDir(abs: string, dir: string): Promise<Dirent[]> {
  const unreadable = (err: unknown): SkillctlError => {
    const code = errnoCode(err);
    return new SkillctlError(code === 'ENOENT' ? 'INPUT_NOT_FOUND' : 'INPUT_UNREADABLE', `contracts directory ${dir} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? String(err)})`}`, { cause: err });
  };
  const isDir = await stat(abs).then((st) => st.isDirectory(), (err: unknown) => Promise.reject(unreadable(err)));
  if (!isDir) throw new SkillctlError('INPUT_UNREADABLE', `contracts directory ${dir} is not a directory`);
  return readdir(abs, { withFileTypes: true }).catch((err: unknown) => Promise.reject(unreadable(err)));
}

export async function readContractDirs(dirs: readonly string[], cwd: string): Promise<ContractSource[]> {
  const out: ContractSource[] = [];
  for (const dir of dirs) {
    const abs = isAbsolute(dir) ? dir : join(cwd, dir);
    const entries = await listDir(abs, dir);
    const files = entries.filter((e) => e.name.endsWith('.json')).sort((a, b) => comparePaths(a.name, b.name));
    for (const e of files) out.push(await readOne(join(abs, e.name), join(dir, e.name), e));
  }
  return out;
}
