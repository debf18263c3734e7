// Threat: resource exhaustion.
// A packs directory is read whole by every `skillctl skill --packs DIR` and at the start of
// `skillctl mcp --packs DIR`, every file parsed and checked. A directory of 5,000 packs of 4 KB
// (20 MB, a few hundred KB in git) held each `skill` call 12 s, and the request's error listed
// every profile (34 KB); 50,000 held it minutes, and an MCP server past its host's start-up
// timeout (until the stop of 2026-12-02). A directory holding more than 256 pack files is now
// refused before any is read (PACK_TOO_LARGE, exit 1).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { attackRows, attempt, scratch } from '../helpers/attack.js';
import { skillctl } from '../helpers/cli.js';

function flood(dir: string, n: number): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < n; i++) {
    const p = `p${i}`;
    const pack = {
      profile: p,
      skill_pack_version: '1.0.0',
      description: 'A pack of a flood.',
      sections: [
        { name: p.toUpperCase(), lines: Array.from({ length: 16 }, () => 'y'.repeat(240)) },
        { name: 'NEXT LOOP', lines: ['1. Loop.'] },
        { name: 'PROOF', lines: ['CMD: receipts.'] },
      ],
    };
    writeFileSync(join(dir, `${p}.json`), JSON.stringify(pack));
  }
}

describe('a packs directory of thousands of packs', () => {
  const sc = scratch('skillctl-attack-pack-flood-');
  attackRows(
    [
      {
        what: 'skill --packs with 20,000 pack files',
        code: 'PACK_TOO_LARGE',
        exit: 1,
        attempt: async (s) => {
          flood(join(s.work, 'flood'), 20_000);
          const t0 = Date.now();
          const r = await attempt(['skill', '--packs', join(s.work, 'flood'), '--profile', 'p1'], { cwd: s.work });
          assert.ok(Date.now() - t0 < 10_000, `took ${Date.now() - t0} ms`);
          return r;
        },
        check: (r) => {
          const doc = JSON.parse(r.stdout) as { error: { code: string; message: string } };
          assert.match(doc.error.message, /holds 20000 pack files; the bound is 256/);
        },
      },
    ],
    sc,
  );

  it('256 pack files are still served', () => {
    flood(join(sc.work, 'bound'), 256);
    const r = skillctl(['skill', '--packs', join(sc.work, 'bound'), '--profile', 'p255'], { cwd: sc.work });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.startsWith('skill profile=p255 version=1.0.0\n'));
  });
});
