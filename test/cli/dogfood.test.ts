// The repository pins everything under manifests/ in pins/skills.lock.json, and it verifies.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { json, skillctl } from '../helpers/cli.js';
import { ROOT } from '../helpers/paths.js';

describe('dogfood', () => {
  it('skillctl verify-pins passes on this repository', () => {
    const r = skillctl(['verify-pins', '--json'], { cwd: ROOT });
    const doc = json<{ ok: boolean; format: string; diagnostics: unknown[] }>(r);
    assert.equal(r.code, 0, JSON.stringify(doc.diagnostics, null, 2));
    assert.equal(doc.format, 'skillctl');
  });

  it('scripts/verify_pins.sh runs it', async () => {
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync('sh', ['scripts/verify_pins.sh'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
});
