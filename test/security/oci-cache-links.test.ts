// Threat: a skill granted the home puts a link where a folder of the blob cache belongs, so that the user's next pull writes blobs into, and removes files from, the folder the link names.
// The link (`skillctl/oci/blobs/sha256 -> ~/.bashrc.d`, planted by a skill granted the home or
// `$XDG_CACHE_HOME`): the user's next pull, outside every sandbox, wrote there every blob it stored (a manifest is JSON whose strings a
// shell runs as `"$(…)"` when the default `.bashrc` of Fedora and RHEL sources every file of
// `~/.bashrc.d`), and removes there every file named like a blob that does not hash to its name.
// Until the stop of 2026-12-01 the cache's folders were followed wherever a link led; now each
// folder below the cache home is opened without following a link, and a link is
// OUTPUT_UNWRITABLE (exit 2) naming it, nothing written or removed where it leads.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { json, skillctl, type CliRun } from '../helpers/cli.js';
import { ociProject, startRegistry, type RunningRegistry } from '../helpers/oci-registry.js';
import { removeDir, tempDir } from '../helpers/project.js';
import { PDF_NOTES_DIR } from '../helpers/skill-md.js';

type Doc = { error?: { code: string; message: string }; digest?: string };

describe('a link planted where a folder of the blob cache belongs', () => {
  let registry: RunningRegistry;
  let work: string;
  let proj: string;
  let env: Record<string, string>;
  let ref: string;
  let digest: string;
  let names: string[];
  /** A folder of the user's outside the cache (a protected one: ~/.bashrc.d). */
  let victim: string;
  const cache = (): string => join(work, 'cache', 'skillctl');
  const cli = (args: string[]): CliRun => skillctl(args, { cwd: proj, env, timeoutMs: 120_000 });
  const pull = (r: string): CliRun => cli(['pull', r, '--out', join(work, 'out'), '--json']);

  before(async () => {
    registry = await startRegistry();
    work = await tempDir('skillctl-oci-cache-links-');
    ({ proj, env } = await ociProject(work));
    ref = `oci://${registry.host}/skills/pdf-notes:1`;
    const pushed = cli(['push', PDF_NOTES_DIR, ref, '--json']);
    assert.equal(pushed.code, 0, pushed.stdout + pushed.stderr);
    const first = pull(ref);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    digest = /@(sha256:[0-9a-f]{64})/.exec(first.stdout)?.[1] ?? '';
    names = await readdir(join(cache(), 'oci', 'blobs', 'sha256'));
    assert.equal(names.length, 3);
  });
  beforeEach(async () => {
    await rm(join(work, 'cache'), { recursive: true, force: true });
    await rm(join(work, 'out'), { recursive: true, force: true });
    victim = join(work, 'home', '.bashrc.d');
    await rm(victim, { recursive: true, force: true });
    await mkdir(victim, { recursive: true });
  });
  after(async () => {
    await registry.stop();
    await removeDir(work);
  });

  const refused = (r: CliRun, link: string): void => {
    const doc = json<Doc>(r);
    assert.deepEqual([r.code, doc.error?.code], [2, 'OUTPUT_UNWRITABLE'], r.stdout + r.stderr);
    assert.ok(doc.error?.message.includes(`${link} is a link`), doc.error?.message);
    assert.equal(existsSync(join(work, 'out', 'pdf-notes')), false);
  };

  const links: [string, string[]][] = [
    ['blobs/sha256', ['oci', 'blobs', 'sha256']],
    ['the scratch folder', ['oci', 'tmp']],
    ['blobs', ['oci', 'blobs']],
    ['the cache folder itself', []],
  ];
  for (const [what, parts] of links) {
    it(`${what} -> ~/.bashrc.d: a pull writes nothing there (OUTPUT_UNWRITABLE, exit 2, naming the link)`, async () => {
      const link = join(cache(), ...parts);
      await mkdir(join(link, '..'), { recursive: true });
      await symlink(victim, link);
      refused(pull(ref), link);
      assert.deepEqual(await readdir(victim), []);
    });
  }

  it('blobs/sha256 -> a folder holding a file named like a blob that does not hash: a pull by digest leaves it', async () => {
    const link = join(cache(), 'oci', 'blobs', 'sha256');
    await mkdir(join(link, '..'), { recursive: true });
    await symlink(victim, link);
    const kept = join(victim, digest.slice('sha256:'.length));
    await writeFile(kept, 'the user\'s own file\n');
    refused(pull(`oci://${registry.host}/skills/pdf-notes@${digest}`), link);
    assert.equal(await readFile(kept, 'utf8'), 'the user\'s own file\n');
  });

  it('the cache home itself may be a link (the user\'s own choice of disk): the pull works', async () => {
    await mkdir(join(work, 'elsewhere'), { recursive: true });
    const home = join(work, 'cache');
    await symlink(join(work, 'elsewhere'), home);
    try {
      const r = pull(ref);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.deepEqual((await readdir(join(work, 'elsewhere', 'skillctl', 'oci', 'blobs', 'sha256'))).sort(), [...names].sort());
    } finally {
      await rm(home, { force: true });
      await rm(join(work, 'elsewhere'), { recursive: true, force: true });
    }
  });
});
