// Threat: a skill hides a pinned file's checkout conversion from the pre-commit hook by writing
// the scratch git directory verify-pins asks for the tree's attributes.
// verify-pins --staged and --rev ask git which .gitattributes apply (check-attr.ts) in a scratch
// git directory `skillctl-attr-*` made directly in the temporary directory. A program of a run
// whose policy lets skills write that directory (shell.exec_safe's python3, under bubblewrap)
// could add `info/attributes` there, which outranks every .gitattributes, between its making and
// git's answer: `* -filter -text` and a pinned file that every checkout runs through a filter
// passed the hook. Now the scratch directory lies in skillctl's own folder there (`skillctl-<uid>`,
// which every run protects: read-only in that sandbox).
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { json, skillctl } from '../helpers/cli.js';
import { git, pinnedRepo } from '../helpers/git-pins.js';
import { removeDir } from '../helpers/project.js';
import { tmpRacer, type TmpRacer } from '../helpers/tmp-racer.js';

const CHECKS = 10;

/** Watches the temporary directory `argv[1]` for verify-pins' scratch git directories and plants attributes in each. */
const RACER = `import os, sys, time
t = sys.argv[1]
open(os.path.join(t, 'racer-ready'), 'w').write('1')
seen, wrote, end = set(), 0, time.time() + 100
while time.time() < end and not os.path.exists(os.path.join(t, 'racer-stop')):
    # The top of the temporary directory and skillctl's own folders in it, nothing deeper: the
    # attributes must land before git is asked.
    for top in [t] + [os.path.join(t, n) for n in os.listdir(t) if n.startswith('skillctl-')]:
        try:
            names = os.listdir(top)
        except OSError:
            continue
        for n in names:
            if 'attr-' not in n:
                continue
            d = os.path.join(top, n, 'git')
            seen.add(d)
            try:
                os.makedirs(os.path.join(d, 'info'), exist_ok=True)
                with open(os.path.join(d, 'info', 'attributes'), 'w') as f:
                    f.write('* -filter -text -diff -merge -ident -working-tree-encoding -eol\\n')
                wrote += 1
            except OSError:
                pass
print('seen %d wrote %d' % (len(seen), wrote))
`;

describe('threat: attributes planted in verify-pins’ scratch git directory', () => {
  let racer: TmpRacer;
  let root: string;

  before(async () => {
    racer = await tmpRacer('skillctl-attr-race-', RACER);
    root = (await pinnedRepo()).root;
    await writeFile(join(root, '.gitattributes'), 'manifests/hello/run.js filter=lfs diff=lfs merge=lfs -text\n');
    git(root, ['add', '.gitattributes']);
  });
  after(async () => Promise.all([racer.work, root].map(removeDir)));

  it(`a program of a run granted the temporary directory races ${CHECKS} verify-pins --staged: each reports the conversion`, async () => {
    const racing = await racer.start();
    let raced: { seen: number; wrote: number; stdout: string } | undefined;
    try {
      for (let i = 0; i < CHECKS; i++) {
        const r = skillctl(['verify-pins', '--staged', '--json'], { cwd: root, env: racer.env, timeoutMs: 120_000 });
        assert.equal(r.code, 1, r.stdout + r.stderr);
        const found = (json<{ diagnostics?: { code: string; file?: string }[] }>(r).diagnostics ?? []).map((d) => [d.code, d.file ?? '']);
        assert.deepEqual(found, [['PIN_CHECKOUT_CONVERTED', 'manifests/hello/run.js']], `check ${i}: ${r.stdout}`);
      }
    } finally {
      raced = await racing.stop();
    }
    // The racer found the scratch directories, and could write in none.
    assert.ok(raced.seen > 0, `the racer saw no scratch directory: ${raced.stdout}`);
    assert.equal(raced.wrote, 0, raced.stdout);
  });
});
