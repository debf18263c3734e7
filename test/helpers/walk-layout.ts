/** A bundle and a directory outside it holding the same names, for walks and reads against a directory swapped for a link. */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './tmp.js';

/** What every file outside the bundle holds. */
export const OUTSIDE_TEXT = 'outside the bundle\n';

/** A bundle `b/` holding `SKILL.md`, `a/b/x.txt` and `a/b/in.txt`, and beside it `outside/` with `out.txt` for `in.txt`, every file OUTSIDE_TEXT. */
export function walkLayout(): { bundle: string; outside: string } {
  const root = realpathSync(tempDir('skillctl-walk-'));
  const bundle = join(root, 'b');
  const outside = join(root, 'outside');
  for (const [dir, text] of [
    [bundle, 'inside\n'],
    [outside, OUTSIDE_TEXT],
  ] as const) {
    mkdirSync(join(dir, 'a', 'b'), { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), text);
    writeFileSync(join(dir, 'a', 'b', 'x.txt'), text);
    writeFileSync(join(dir, 'a', 'b', dir === bundle ? 'in.txt' : 'out.txt'), text);
  }
  return { bundle, outside };
}
