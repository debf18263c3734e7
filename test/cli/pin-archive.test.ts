// Pins that stay put: the sequence of docs/commands/pin.md (pin a folder, pack it, pin the archive)
// never moves the folder's pin, and pack never gives an identity other bytes (seed 003:
// "(skill_id, skill_version) MUST be immutable"). Exact messages and exit statuses.
import assert from 'node:assert/strict';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { json, skillctl } from '../helpers/cli.js';
import { projects } from '../helpers/project.js';

const LOCK = join('pins', 'skills.lock.json');
const ARCHIVE = 'dist/word-count-0.1.0.tgz';

/** The fixture project plus skills/word-count, a SKILL.md folder at version 0.1.0; all pinned. */
async function pinnedWordCount(project: () => Promise<string>): Promise<string> {
  const root = await project();
  await mkdir(join(root, 'skills', 'word-count'), { recursive: true });
  const text = '---\nname: word-count\ndescription: Count the words of a text. Use when the user asks how long a text is.\nmetadata:\n  version: "0.1.0"\n---\n\n# Word count\n\nCount the words.\n';
  await writeFile(join(root, 'skills', 'word-count', 'SKILL.md'), text);
  const r = skillctl(['pin', '--all'], { cwd: root });
  assert.equal(r.code, 0, r.stdout);
  return root;
}

/** What a refusal prints: the file, the error and its hint, the summary line. */
function output(file: string, error: string, hint: string, summary: string): string {
  return `${file}\n          error   ${error}\n          hint: ${hint}\n${summary}\n`;
}

describe('pins that stay put', () => {
  const { project, cleanup } = projects();
  after(cleanup);

  it('pinning the archive of a pinned folder is refused with what to do; the lock is untouched', async () => {
    const root = await pinnedWordCount(project);
    assert.equal(skillctl(['pack', 'skills/word-count', '--out', 'dist'], { cwd: root }).code, 0);
    const before = await readFile(join(root, LOCK), 'utf8');
    const r = skillctl(['pin', ARCHIVE], { cwd: root });
    assert.equal(r.code, 1);
    assert.equal(
      r.stdout,
      output(
        'dist/word-count-0.1.0.tgz',
        'PIN_SOURCE_CONFLICT  word-count 0.1.0 is already pinned from skills/word-count; a lock pins one source per identity, so dist/word-count-0.1.0.tgz is not pinned',
        'nothing to do: the pin of skills/word-count covers the same content (verify-pins checks the folder). To pin the archive in its place, remove skills/word-count first',
        '✖ pins/skills.lock.json was not changed',
      ),
    );
    assert.equal(await readFile(join(root, LOCK), 'utf8'), before);
    assert.equal(skillctl(['verify-pins'], { cwd: root }).code, 0);
  });

  it('the pin moves, visibly, once the folder is gone, and back from the archive to the folder', async () => {
    const root = await pinnedWordCount(project);
    assert.equal(skillctl(['pack', 'skills/word-count', '--out', 'dist'], { cwd: root }).code, 0);
    await cp(join(root, 'skills', 'word-count'), join(root, 'kept'), { recursive: true });
    await rm(join(root, 'skills', 'word-count'), { recursive: true });
    const moved = skillctl(['pin', ARCHIVE], { cwd: root });
    assert.equal(moved.code, 0, moved.stdout);
    assert.match(moved.stdout, /^moved {5}word-count 0\.1\.0 {2}dist\/word-count-0\.1\.0\.tgz \(was skills\/word-count\)$/m);
    // The folder is back: it wins over the archive packed from it (the one CI sees when dist/ is ignored).
    await cp(join(root, 'kept'), join(root, 'skills', 'word-count'), { recursive: true });
    const back = skillctl(['pin', '--json', 'skills/word-count'], { cwd: root });
    assert.equal(back.code, 0, back.stdout);
    assert.deepEqual(json<{ changes: unknown[] }>(back).changes, [{ kind: 'skill', id: 'word-count', version: '0.1.0', source: 'skills/word-count', action: 'moved', from: ARCHIVE }]);
  });

  it('pack refuses to overwrite an archive of the same id and version with other bytes, unless --force', async () => {
    const root = await pinnedWordCount(project);
    assert.equal(skillctl(['pack', 'skills/word-count', '--out', 'dist'], { cwd: root }).code, 0);
    const first = await readFile(join(root, ARCHIVE));
    // Packing the same content again is reproducible: the same bytes, accepted.
    assert.equal(skillctl(['pack', 'skills/word-count', '--out', 'dist'], { cwd: root }).code, 0);
    await writeFile(join(root, 'skills', 'word-count', 'SKILL.md'), (await readFile(join(root, 'skills', 'word-count', 'SKILL.md'), 'utf8')) + 'Count them twice.\n');
    const r = skillctl(['pack', 'skills/word-count', '--out', 'dist'], { cwd: root });
    assert.equal(r.code, 1);
    assert.equal(
      r.stdout,
      output(
        'skills/word-count',
        'ARCHIVE_IMMUTABLE  the archive word-count-0.1.0.tgz in dist holds other bytes: (skill_id, skill_version) MUST be immutable (seed 003), so it was not overwritten',
        'give the changed skill a new version, or pass --force if this version was never released',
        '✖ skills/word-count was not packed',
      ),
    );
    assert.deepEqual(await readFile(join(root, ARCHIVE)), first);
    const forced = skillctl(['pack', 'skills/word-count', '--out', 'dist', '--force'], { cwd: root });
    assert.equal(forced.code, 0, forced.stdout);
    assert.notDeepEqual(await readFile(join(root, ARCHIVE)), first);
  });
});
