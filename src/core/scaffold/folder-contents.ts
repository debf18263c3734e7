/**
 * `init --force` writes into a folder that is not empty, and the files already there are part of
 * the new skill. What in them makes that skill invalid whatever init writes (a link, a FIFO, a
 * folder past the bounds, a second manifest, a name that macOS and Windows store as one of init's
 * files) is found here, before anything is written: until the stop of 2026-12-01 init wrote its
 * files and only then found it, ending as INTERNAL, "a bug in skillctl".
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { dirSource, foldName, type MemoryFile } from '../bundle/index.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { pushAll } from '../findings.js';
import type { SkillFormat } from './scaffold.js';

/**
 * For each folder a path of `files` goes through, an entry other than the one init writes that a
 * file system ignoring case or normalising names takes for it (`Skill.md` for `SKILL.md`,
 * `Scripts/` for `scripts/`). Read from the folder itself, so a file `.skillignore` leaves out
 * counts too: there init would replace it.
 */
async function foldedTwins(target: string, files: readonly MemoryFile[], label: string): Promise<Diagnostic[]> {
  const out = new Map<string, Diagnostic>();
  for (const f of files) {
    let at = target;
    let rel = '';
    for (const part of f.path.split('/')) {
      const entries = await readdir(at).catch(() => undefined);
      if (entries === undefined) break;
      const key = foldName(part);
      const twin = entries.find((e) => e !== part && foldName(e) === key);
      const mine = rel === '' ? part : `${rel}/${part}`;
      if (twin !== undefined && !out.has(mine)) {
        const theirs = rel === '' ? twin : `${rel}/${twin}`;
        out.set(mine, diag('BUNDLE_PATH_COLLISION', `${theirs} and ${mine} are one file on a file system that ignores case or normalises names (macOS, Windows)`, {
          file: join(label, theirs),
          hint: `rename or remove ${theirs}: init writes ${f.path}`,
        }));
      }
      at = join(at, part);
      rel = mine;
    }
  }
  return [...out.values()];
}

/** What the folder `target` already holds that would make the skill init writes there invalid. */
export async function unusableContents(target: string, files: readonly MemoryFile[], format: SkillFormat, label: string): Promise<Diagnostic[]> {
  const listing = await dirSource(target).list();
  const out = listing.diagnostics.filter((d) => d.severity === 'error');
  pushAll(out, await foldedTwins(target, files, label));
  if (format === 'manifest' && (await lstat(join(target, 'skill.json')).catch(() => undefined)) !== undefined) {
    out.push(diag('BUNDLE_AMBIGUOUS_MANIFEST', `${join(label, 'skill.json')} exists, and init writes skill.yaml: a bundle holds one manifest`, {
      file: join(label, 'skill.json'),
      hint: 'remove skill.json, or choose a new folder',
    }));
  }
  return out;
}
