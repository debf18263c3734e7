// Threat: a bundle changed while `pin` or `validate` reads it (a file's bytes flipping between valid and tampered, or the bundle's own folder and a link to outside trading places) makes a lock pin bytes that were never validated, or makes outside bytes hashed or read.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validateBundle } from '../../src/core/manifest/index.js';
import { collectTargets, preparePin, type PinTarget, type SkillPin, type SkillctlLock } from '../../src/core/pins/index.js';
import { editManifest, makeProject } from '../helpers/project.js';
import { pinPaths } from '../helpers/pins.js';
import { swap } from '../helpers/swap.js';
import { errorCodesOf } from '../helpers/diagnostics.js';

/** Runs per attack, as walk-races.test.ts makes them. */
const RUNS = 200;

/**
 * Whether to run again: `RUNS` runs, and more (up to ten times as many) while no run got through.
 * A refusal costs a fraction of a pin, so on a busy machine 200 of them can all fall in one state
 * of a swapper not yet scheduled again.
 */
const again = (i: number, through: number | undefined): boolean => i < RUNS || (through === undefined && i < RUNS * 10);

const errorCodes = (ds: readonly { code: string; severity: string }[]): string => errorCodesOf(ds).join(',');

/** The pin of demo.hello in the lock `root` has. */
function pinned(root: string): SkillPin | undefined {
  const lock = JSON.parse(readFileSync(join(root, 'pins', 'skills.lock.json'), 'utf8')) as SkillctlLock;
  return lock.skills.find((s) => s.skill_id === 'demo.hello');
}

describe('threat: a bundle changed while pin or validate reads it', () => {
  it(`pin: ${RUNS} pins while data/words.txt flips between its valid bytes and tampered ones: every lock written pins the bytes that validate, or pin refuses`, async () => {
    const root = await makeProject();
    const bundle = join(root, 'manifests', 'hello');
    const first = await pinPaths(root, { paths: ['manifests/hello'] });
    assert.equal(first.ok, true, JSON.stringify(first.diagnostics));
    const valid = pinned(root) as SkillPin;
    // Same size, other bytes: only a digest tells them apart.
    writeFileSync(join(root, 'words.tampered'), 'hello\nmars!\n');
    const stop = await swap(join(bundle, 'data', 'words.txt'), join(root, 'words.tampered'));
    const seen: Record<string, number> = {};
    const wrong: string[] = [];
    try {
      for (let i = 0; again(i, seen.pinned); i++) {
        const out = await pinPaths(root, { paths: ['manifests/hello'], replace: true });
        const key = out.ok ? 'pinned' : errorCodes(out.diagnostics);
        seen[key] = (seen[key] ?? 0) + 1;
        const now = pinned(root);
        // The lock as it stands after the run: only ever the pin of the valid bytes.
        if (JSON.stringify(now) !== JSON.stringify(valid)) wrong.push(JSON.stringify(now));
      }
    } finally {
      await stop();
    }
    assert.deepEqual(wrong, [], JSON.stringify(seen));
    for (const key of Object.keys(seen)) assert.ok(key === 'pinned' || key === 'CONTENT_DIGEST_MISMATCH', JSON.stringify(seen));
    assert.ok((seen.pinned ?? 0) > 0 && (seen.CONTENT_DIGEST_MISMATCH ?? 0) > 0, `the race never showed both states: ${JSON.stringify(seen)}`);
  });

  /**
   * A project whose manifests/hello trades places with a link to a valid bundle outside (other
   * words, digests fixed); `leaked` finds in a result a digest of outside's bytes or its path.
   */
  async function rootSwap(): Promise<{ root: string; bundle: string; target: PinTarget | undefined; leaked: (text: string) => boolean; stop: () => Promise<void> }> {
    const root = realpathSync(await makeProject());
    const bundle = join(root, 'manifests', 'hello');
    const outside = `${root}-outside`;
    cpSync(bundle, outside, { recursive: true });
    const words = 'outside\nbytes\n';
    writeFileSync(join(outside, 'data', 'words.txt'), words);
    await editManifest(outside, (t) => t);
    const v = await validateBundle(outside);
    assert.equal(v.valid, true, JSON.stringify(v.diagnostics));
    const marks = [outside, `sha256:${createHash('sha256').update(words).digest('hex')}`, v.digests.content.computed as string, v.digests.manifest.computed as string];
    symlinkSync(outside, join(root, 'manifests', 'hello-link'));
    // The pin target as the command line names it, collected once before the race: pin refuses a
    // source reached through a link, so one collected while the folders trade places may be none.
    const target = (await collectTargets(root, root, ['manifests/hello'], false)).targets[0];
    const stop = await swap(bundle, join(root, 'manifests', 'hello-link'));
    return { root, bundle, target, leaked: (text) => marks.some((m) => text.includes(m)), stop };
  }

  it(`pin: ${RUNS} pins while the bundle's own folder and a link to outside trade places: each pins the inside bundle or is refused, never hashes outside`, async () => {
    const { root, target, leaked, stop } = await rootSwap();
    const seen: Record<string, number> = {};
    const leaks: string[] = [];
    try {
      assert.ok(target !== undefined, 'the target is collected before the race');
      for (let i = 0; again(i, seen.pinned); i++) {
        let key: string;
        try {
          const r = await preparePin({ root, keys: new Map(), signing: [] }, target);
          const text = JSON.stringify(r);
          if (leaked(text)) leaks.push(text);
          key = r.prepared !== undefined ? 'pinned' : errorCodes(r.diagnostics);
        } catch (err) {
          key = `threw:${(err as { code?: string }).code ?? String(err)}`;
        }
        seen[key] = (seen[key] ?? 0) + 1;
      }
    } finally {
      await stop();
    }
    assert.deepEqual(leaks, [], JSON.stringify(seen));
    for (const key of Object.keys(seen)) assert.ok(['pinned', 'BUNDLE_ROOT_CHANGED', 'PIN_SOURCE_INVALID'].includes(key), JSON.stringify(seen));
    assert.ok((seen.pinned ?? 0) > 0, `no pin got through while the folders swapped: ${JSON.stringify(seen)}`);
  });

  it(`validate: ${RUNS} validations of a bundle resolved once while its folder and a link to outside trade places: none reads outside`, async () => {
    const { bundle, leaked, stop } = await rootSwap();
    const seen: Record<string, number> = {};
    const leaks: string[] = [];
    try {
      for (let i = 0; again(i, seen.valid); i++) {
        // The user's path resolved once (the CLI does it), then opened without following a link.
        const v = await validateBundle(bundle, 'manifests/hello', { followRoot: false });
        const text = JSON.stringify({ ...v, document: undefined });
        if (leaked(text)) leaks.push(text);
        const key = v.valid ? 'valid' : errorCodes(v.diagnostics);
        seen[key] = (seen[key] ?? 0) + 1;
      }
    } finally {
      await stop();
    }
    assert.deepEqual(leaks, [], JSON.stringify(seen));
    for (const key of Object.keys(seen)) assert.ok(['valid', 'BUNDLE_ROOT_CHANGED'].includes(key), JSON.stringify(seen));
    assert.ok((seen.valid ?? 0) > 0, `no validation got through while the folders swapped: ${JSON.stringify(seen)}`);
  });
});
