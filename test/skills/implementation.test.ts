// A built-in's pin covers the TypeScript that implements it (scripts/implementation.mjs): each
// default bundle holds implementation.json with the digests of its modules, so a changed module is
// a changed bundle, and the lock's pin of it no longer verifies until it is pinned again.
import assert from 'node:assert/strict';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { skillctl, json } from '../helpers/cli.js';
import { ROOT } from '../helpers/paths.js';
import { removeDir, tempDir } from '../helpers/project.js';

interface Implementation {
  readonly skill_id: string;
  readonly sources: readonly { readonly path: string; readonly digest: string }[];
}
interface Script {
  implementationOf(id: string, root?: string): Implementation;
  staleImplementations(root?: string): [string, string][];
}
const script = (): Promise<Script> => import(join(ROOT, 'scripts', 'implementation.mjs')) as Promise<Script>;

describe('the pins of the built-in skills cover their code', () => {
  const dirs: string[] = [];
  after(async () => Promise.all(dirs.map(removeDir)));

  it('every default bundle lists its modules with their current digests', async () => {
    const { staleImplementations, implementationOf } = await script();
    assert.deepEqual(staleImplementations().map(([dir]) => dir), [], 'run node scripts/implementation.mjs --write, then validate --fix and pin --replace with the project key (docs/formats/signatures.md)');
    const readText = implementationOf('fs.read_text');
    assert.equal(readText.sources[0]?.path, 'src/skills/fs.read_text.ts');
    assert.ok(readText.sources.some((s) => s.path === 'src/skills/lib/text.ts'), 'its helpers count, transitively');
    assert.ok(readText.sources.every((s) => s.path.startsWith('src/skills/')), 'the host (src/core) is skillctl itself, not the skill');
  });

  it('a changed helper changes the listing, and so the bundle its pin covers', async () => {
    const { implementationOf } = await script();
    const root = await tempDir('skillctl-impl-');
    dirs.push(root);
    await mkdir(join(root, 'src'), { recursive: true });
    await cp(join(ROOT, 'src', 'skills'), join(root, 'src', 'skills'), { recursive: true });
    const before = implementationOf('fs.read_text', root);
    const lib = join(root, 'src', 'skills', 'lib', 'text.ts');
    await writeFile(lib, `${await readFile(lib, 'utf8')}\n// changed\n`);
    const after = implementationOf('fs.read_text', root);
    assert.notDeepEqual(after, before);
    assert.deepEqual(
      after.sources.filter((s, i) => s.digest !== before.sources[i]?.digest).map((s) => s.path),
      ['src/skills/lib/text.ts'],
    );
  });

  it('a pinned built-in bundle whose implementation.json changed no longer verifies', async () => {
    const root = await tempDir('skillctl-impl-pin-');
    dirs.push(root);
    await mkdir(join(root, 'manifests'), { recursive: true });
    await cp(join(ROOT, 'manifests', 'default', 'fs.read_text'), join(root, 'manifests', 'fs.read_text'), { recursive: true });
    // The bundle carries the project's signature: a project pinning it trusts the project's key.
    await mkdir(join(root, 'pins'));
    await cp(join(ROOT, 'pins', 'public-keys.json'), join(root, 'pins', 'public-keys.json'));
    assert.equal(skillctl(['pin', '--all'], { cwd: root }).code, 0);
    assert.equal(skillctl(['verify-pins'], { cwd: root }).code, 0);
    const file = join(root, 'manifests', 'fs.read_text', 'implementation.json');
    await writeFile(file, (await readFile(file, 'utf8')).replace(/sha256:[0-9a-f]{8}/, 'sha256:00000000'));
    const r = skillctl(['verify-pins', '--json'], { cwd: root });
    assert.equal(r.code, 1);
    assert.ok(json<{ diagnostics: { code: string }[] }>(r).diagnostics.some((d) => d.code === 'PIN_MODIFIED'), r.stdout);
  });
});
