/**
 * Committed files inside a pinned folder that its digests leave out: a `node_modules/` or
 * `.skillctl/` at any depth, and what the folder's `.skillignore` matches. On a working tree
 * they are what a developer's tools made (an `npm install`), and leaving them out is right; in a
 * commit they are part of the skill everyone checks out, and an agent that runs the skill's
 * `scripts/run.js` loads `require('yaml')` from the folder's own `node_modules/yaml/` first. A
 * tampered copy committed there passed every digest. So when the files verified are a git tree
 * (`verify-pins --staged`, `--rev`), each is a finding.
 */
import { join } from 'node:path';
import type { Ignore } from 'ignore';
import { isExcluded, parseSkillignore, type DirOps } from '../bundle/index.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { comparePaths } from '../digest/index.js';
import { pushAll } from '../findings.js';

/** A `.skillignore` larger than this is not read here; the bundle walk reports it. */
const SKILLIGNORE_MAX = 1024 * 1024;

async function skillignore(abs: string, ops: DirOps): Promise<Ignore | undefined> {
  const read = await ops.readBounded(join(abs, '.skillignore'), { maxBytes: SKILLIGNORE_MAX, followLinks: false });
  return read.ok ? parseSkillignore(read.bytes.toString('utf8')) : undefined;
}

/**
 * `PIN_UNCOVERED` for each entry under `folders` (pinned folders, relative to `root`) that the
 * digests leave out: a directory whole (it is never entered), a file by its path; sorted by path.
 */
export async function findUncovered(root: string, folders: readonly string[], ops: DirOps): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const folder of folders) {
    const top = join(root, ...folder.split('/'));
    const ig = await skillignore(top, ops);
    const stack = [''];
    while (stack.length > 0) {
      const rel = stack.pop() as string;
      let entries;
      try {
        entries = await ops.readdir(rel === '' ? top : join(top, ...rel.split('/')));
      } catch {
        // The pin's own verification reports a folder it cannot list.
        continue;
      }
      const dirs: string[] = [];
      for (const e of entries) {
        const path = rel === '' ? e.name : `${rel}/${e.name}`;
        const dir = e.isDirectory();
        if (!isExcluded(path, dir, ig)) {
          if (dir) dirs.push(path);
          continue;
        }
        const what = dir ? `the folder ${folder}/${path}/` : `${folder}/${path}`;
        out.push(
          diag('PIN_UNCOVERED', `${what} is committed in the pinned folder ${folder} but no digest covers it (${dir && ig?.ignores(`${path}/`) !== true ? 'a folder the digests never enter' : 'matched by .skillignore'})`, {
            file: `${folder}/${path}`,
            hint: `remove it from the commit (git rm -r --cached ${folder}/${path}), or keep it outside the skill folder: whatever a commit holds in the folder is loaded with the skill`,
          }),
        );
      }
      pushAll(stack, dirs);
    }
  }
  return out.sort((a, b) => comparePaths(a.file as string, b.file as string));
}
