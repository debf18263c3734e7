/**
 * The attributes the tree being verified gives its paths, from that tree's own .gitattributes
 * files and nothing else: what every checkout of it applies. git answers (`check-attr --cached`:
 * its patterns, macros and precedence, nothing re-implemented here), in a scratch git directory
 * outside the repository whose index holds only the tree's .gitattributes entries (git before
 * 2.40 has no `check-attr --source`). The objects are the repository's, read in place. So this
 * machine's own attributes (.git/info/attributes, core.attributesFile, the system file) are not
 * taken for the tree's, and neither index nor repository is written: the scratch directory is
 * removed after. Each path is asked twice, matching case as Linux does and ignoring it as a macOS
 * or Windows checkout does (`core.ignorecase`), so a pattern spelt in another case is not missed
 * where CI runs.
 *
 * The scratch directory lies in `skillctl-<uid>`, which every run protects: anywhere else in the
 * temporary directory, a skill of a run granted it could add `info/attributes` (which outranks
 * every .gitattributes) between its making and git's answer, and a conversion would go unseen.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { GitTree } from '../../../core/git-tree/index.js';
import { privateScratch } from '../../../core/run/scratch-root.js';
import { firstLine, unreadable, type Git, type GitRunExtra } from '../../git-run.js';

/** An answer larger than this is refused (about 30 bytes a path and attribute). */
const ANSWER_MAX = 256 * 1024 * 1024;

/** Each path's attributes, one map for case-sensitive matching and one ignoring case. */
export type AttributeAnswers = ReadonlyMap<string, readonly Readonly<Record<string, string>>[]>;

/** `git check-attr -z` output: path NUL attribute NUL value NUL, in the order asked. */
function parse(out: Buffer, asked: readonly string[], names: readonly string[]): Map<string, Record<string, string>> | undefined {
  const fields = out.toString('utf8').split('\0');
  if (fields.pop() !== '' || fields.length !== asked.length * names.length * 3) return undefined;
  const found = new Map<string, Record<string, string>>();
  for (let i = 0; i < fields.length; i += 3) {
    const [path, name, value] = [fields[i], fields[i + 1], fields[i + 2]] as [string, string, string];
    if (!names.includes(name)) return undefined;
    const attrs = found.get(path) ?? {};
    attrs[name] = value;
    found.set(path, attrs);
  }
  return found;
}

/** A git directory holding nothing but `HEAD` (and the object format), with the repository's objects. */
async function scratchRepository(git: Git, tree: GitTree): Promise<{ dir: string; extra: GitRunExtra }> {
  const where = await git.run(['rev-parse', '--git-path', 'objects'], 64 * 1024);
  const objects = where.code === 0 ? where.stdout.toString('utf8').replace(/\n$/, '') : '';
  if (objects === '' || objects.includes('\n')) throw unreadable(`git rev-parse --git-path objects failed: ${firstLine(where)}`);
  const dir = await privateScratch(tmpdir(), 'attr-');
  const gitDir = join(dir, 'git');
  await mkdir(join(gitDir, 'refs'), { recursive: true });
  await writeFile(join(gitDir, 'HEAD'), 'ref: refs/heads/scratch\n');
  const sha256 = [...tree.entries.values()].some((e) => e.oid.length === 64);
  await writeFile(join(gitDir, 'config'), sha256 ? '[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectformat = sha256\n' : '');
  const env = {
    GIT_DIR: gitDir,
    GIT_OBJECT_DIRECTORY: resolve(objects),
    GIT_INDEX_FILE: join(dir, 'index'),
    GIT_ATTR_NOSYSTEM: '1',
    GIT_WORK_TREE: undefined,
    GIT_COMMON_DIR: undefined,
  };
  return { dir, extra: { env, config: [['core.attributesfile', '/dev/null']] } };
}

/** The attributes `names` of `paths` (from the top of `tree`), from `tree`'s .gitattributes files. */
export async function checkAttributes(git: Git, tree: GitTree, paths: readonly string[], names: readonly string[]): Promise<AttributeAnswers> {
  const out = new Map<string, Readonly<Record<string, string>>[]>();
  if (paths.length === 0) return out;
  // A .gitattributes committed as a symbolic link counts too: git reads the link's blob from the
  // index, its target text taken for attribute lines, and every checkout applies them.
  const attributeFiles = [...tree.entries.values()].filter((e) => (e.path === '.gitattributes' || e.path.endsWith('/.gitattributes')) && e.kind !== 'submodule');
  // No .gitattributes in the tree: git gives every path every attribute unspecified (it has no
  // built-in conversions), so no git is started to say so.
  if (attributeFiles.length === 0) {
    const none = Object.fromEntries(names.map((n) => [n, 'unspecified']));
    for (const p of paths) out.set(p, [none, none]);
    return out;
  }
  const { dir, extra } = await scratchRepository(git, tree);
  try {
    const fill = await git.run(['update-index', '--add', '-z', '--index-info'], 64 * 1024, attributeFiles.map((e) => `${e.kind === 'link' ? '120000' : '100644'} ${e.oid}\t${e.path}\0`).join(''), extra);
    if (fill.code !== 0) throw unreadable(`git update-index failed: ${firstLine(fill)}`);
    const input = paths.map((p) => `${p}\0`).join('');
    for (const ignoreCase of ['false', 'true']) {
      const r = await git.run(['check-attr', '--cached', '-z', '--stdin', ...names], ANSWER_MAX, input, { ...extra, config: [...(extra.config ?? []), ['core.ignorecase', ignoreCase]] });
      if (r.stopped) throw unreadable(`git check-attr answers more than ${ANSWER_MAX} bytes`);
      if (r.code !== 0) throw unreadable(`git check-attr failed: ${firstLine(r)}`);
      const found = parse(r.stdout, paths, names);
      for (const p of paths) {
        const attrs = found?.get(p);
        if (attrs === undefined) throw unreadable(`git check-attr gave an answer that is not understood (for ${p})`);
        out.set(p, [...(out.get(p) ?? []), attrs]);
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return out;
}
