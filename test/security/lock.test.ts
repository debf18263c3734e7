// Threat: a hostile lock. `run <skill_id>` must trust exactly what `verify-pins` would accept:
// a pin whose source leaves the project (`../elsewhere`, `manifests/../../elsewhere`, a symlink),
// a lock with schema errors or not in canonical form, or a bundle that no longer matches its pin
// runs nothing, and nothing outside the scratch folder changes.
import assert from 'node:assert/strict';
import { cp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { json, skillctl, type CliRun } from '../helpers/cli.js';
import { pinPaths } from '../helpers/pins.js';
import { makeProject, snapshot } from '../helpers/project.js';

interface RunDoc {
  status: string;
  diagnostics: { code: string; severity: string }[];
}
const errors = (r: CliRun): string[] => [...new Set(json<RunDoc>(r).diagnostics.filter((d) => d.severity === 'error').map((d) => d.code))].sort();

describe('threat: a hostile lock (run trusts only what verify-pins accepts)', () => {
  let root: string;
  let elsewhere: string;
  let lockText: string;
  const lock = (): string => join(root, 'pins', 'skills.lock.json');
  const run = (): CliRun => skillctl(['run', 'demo.hello', '--json', '--no-audit', '--sandbox', 'bwrap'], { cwd: root });
  const verify = (): number => skillctl(['verify-pins'], { cwd: root }).code;

  /** Rewrites the pin's source (keeping the lock canonical otherwise). */
  async function pinSource(source: string): Promise<void> {
    const doc = JSON.parse(lockText) as { skills: { source: string }[] };
    (doc.skills[0] as { source: string }).source = source;
    await writeFile(lock(), `${JSON.stringify(doc, null, 2)}\n`);
  }

  before(async () => {
    root = await makeProject();
    const outcome = await pinPaths(root);
    assert.ok(outcome.ok, JSON.stringify(outcome.diagnostics));
    lockText = await readFile(lock(), 'utf8');
    // The same bundle, outside the project: what a hostile lock would point at.
    elsewhere = join(root, '..', `${root.split('/').pop() ?? 'x'}-elsewhere`);
    await cp(join(root, 'manifests', 'hello'), elsewhere, { recursive: true });
    assert.equal(run().code, 0, 'the pinned bundle runs');
  });

  for (const [name, source] of [
    ['a source with ..', '../elsewhere'],
    ['a source that climbs out through manifests/..', 'manifests/../../elsewhere'],
  ] as const) {
    it(`${name}: PIN_SOURCE_INVALID, exit 1, nothing runs`, async () => {
      await pinSource(source.replace('elsewhere', elsewhere.split('/').pop() as string));
      const before = await snapshot(elsewhere);
      const r = run();
      assert.equal(r.code, 1, r.stdout);
      assert.deepEqual(errors(r), ['PIN_SOURCE_INVALID', 'RUN_PIN_MISMATCH']);
      assert.notEqual(verify(), 0, 'verify-pins rejects it too');
      assert.deepEqual(await snapshot(elsewhere), before);
    });
  }

  it('a source that leaves the project through a symlink: PIN_SOURCE_INVALID, exit 1, nothing runs', async () => {
    await symlink(elsewhere, join(root, 'manifests', 'linked'));
    await pinSource('manifests/linked');
    const r = run();
    assert.equal(r.code, 1, r.stdout);
    assert.deepEqual(errors(r), ['PIN_SOURCE_INVALID', 'RUN_PIN_MISMATCH']);
    assert.notEqual(verify(), 0);
    await rm(join(root, 'manifests', 'linked'));
  });

  it('a lock with a schema error or not in canonical form: RUN_LOCK_INVALID, exit 2', async () => {
    const doc = JSON.parse(lockText) as Record<string, unknown>;
    await writeFile(lock(), `${JSON.stringify({ ...doc, extra: true }, null, 2)}\n`);
    assert.equal(run().code, 2);
    assert.ok(errors(run()).includes('RUN_LOCK_INVALID'));
    await writeFile(lock(), JSON.stringify(doc));
    assert.equal(run().code, 2, 'not canonical');
    assert.ok(errors(run()).includes('LOCK_NOT_CANONICAL'));
    await writeFile(lock(), lockText);
  });

  it('a bundle changed after pinning: refused (exit 1), nothing runs', async () => {
    await writeFile(lock(), lockText);
    const script = join(root, 'manifests', 'hello', 'run.js');
    const original = await readFile(script, 'utf8');
    await writeFile(script, `require('fs').writeFileSync(${JSON.stringify(join(root, 'pwned'))}, 'x');\n${original}`);
    const r = run();
    assert.equal(r.code, 1, r.stdout);
    // The manifest's own content_digest no longer matches: the bundle is invalid before its pin is compared.
    assert.deepEqual(errors(r), ['CONTENT_DIGEST_MISMATCH', 'RUN_BUNDLE_INVALID']);
    await assert.rejects(readFile(join(root, 'pwned')));
    await writeFile(script, original);
    assert.equal(run().code, 0, 'restored, it runs again');
  });
});
