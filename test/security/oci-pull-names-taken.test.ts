// Threat: a layer holds two names that the file system it is pulled onto stores as one, and the pull ends as a crash.
// A layer may hold `A/x` and `a/x`, or `SKILL.md` and `Skill.md`: on Linux they are two files, and
// the pulled skill is refused as BUNDLE_PATH_COLLISION once it is listed. On a file system that
// ignores case (macOS, Windows) the second name is already taken when it is unpacked: the
// exclusive create failed with EEXIST (ENOTDIR for a file `a` and a folder `A/`), which ended
// the pull as INTERNAL ("a bug in skillctl") until the stop of 2026-11-30. A name already
// taken in the fresh scratch folder is now that finding, BUNDLE_PATH_COLLISION (exit 1), nothing
// placed. This machine's file systems all keep case, so the name is taken here by a process
// that writes it into the scratch folder before the pull does, the same failure by another way.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { json, skillctlAsync } from '../helpers/cli.js';
import { hostileRegistry, type HostileRegistry } from '../helpers/hostile-registry.js';
import { ociProject } from '../helpers/oci-registry.js';
import { removeDir, tempDir } from '../helpers/project.js';
import { tgz } from '../helpers/tar.js';

type Doc = { error?: { code: string }; diagnostics?: { code: string }[] };

/** Polls until `find` gives a value (the pull's scratch folder appearing), for at most 30 s. */
async function waitFor<T>(find: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const found = await find();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
}

describe('a name of the layer already taken where it is unpacked', () => {
  let hostile: HostileRegistry;
  let work: string;
  let proj: string;
  let env: Record<string, string>;
  let release: () => void = () => undefined;

  before(async () => {
    work = await tempDir('skillctl-oci-names-taken-');
    ({ proj, env } = await ociProject(work));
    // SKILL.md first, then a megabyte that does not compress (so the first half of the layer
    // holds SKILL.md and the last file is only in the second), then `z.txt`.
    const layer = tgz([
      { name: 'SKILL.md', data: '---\nname: pdf-notes\ndescription: Notes.\n---\n# Notes\n' },
      { name: 'pad.bin', data: randomBytes(1024 * 1024) },
      { name: 'z.txt', data: 'the layer\'s\n' },
    ]);
    hostile = await hostileRegistry({ misbehaviour: 'none', layer, pauseLayer: new Promise<void>((r) => (release = r)) });
  });
  after(async () => {
    release();
    await hostile.close();
    await removeDir(work);
  });

  it('z.txt taken before the pull writes it: BUNDLE_PATH_COLLISION, exit 1, not INTERNAL, nothing placed', async () => {
    const out = join(work, 'out');
    const pulling = skillctlAsync(['pull', `oci://${hostile.host}/skills/pdf-notes:1`, '--out', out, '--json'], { cwd: proj, env, timeoutMs: 120_000 });
    // The pull unpacks the first half of the layer into `<out>/.skillctl-pull-*/skill/`.
    const skill = await waitFor(async () => {
      const scratch = (await readdir(out).catch(() => [])).find((n) => n.startsWith('.skillctl-pull-'));
      return scratch !== undefined && existsSync(join(out, scratch, 'skill', 'SKILL.md')) ? join(out, scratch, 'skill') : undefined;
    });
    await writeFile(join(skill, 'z.txt'), 'taken\n', { flag: 'wx' });
    release();
    const r = await pulling;
    const doc = json<Doc>(r);
    assert.deepEqual([r.code, doc.error?.code ?? doc.diagnostics?.find((d) => d.code === 'BUNDLE_PATH_COLLISION')?.code], [1, 'BUNDLE_PATH_COLLISION'], r.stdout + r.stderr);
    assert.equal(existsSync(join(out, 'pdf-notes')), false);
  });
});
