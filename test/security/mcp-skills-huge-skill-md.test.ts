// Threat: a hostile repository holds a skill whose SKILL.md is huge, so that `skillctl mcp
// --skills` spends the host's memory and the thread every session shares on it at every listing.
// A SKILL.md of valid frontmatter padded with zeros to 2 GB weighs a few megabytes in a git
// repository; the server read it whole (one buffer of its size, filled) before the check that
// refuses a SKILL.md past 4 MiB, and did so again at each `skills/list`, `resources/list` or read
// of another skill, since a refused skill is not kept: 2 GB and 20 s a listing, every other
// session's requests waiting meanwhile (until the stop of 2026-12-01). Now a SKILL.md past the
// bound is refused by its size (MANIFEST_TOO_LARGE), its bytes never read.
import assert from 'node:assert/strict';
import { readFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { connect, listsOnly, skillMd } from '../helpers/mcp-skills-client.js';
import { ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

/** Sparse: no disk, and zeros to read. */
const HUGE = 1024 * 1024 * 1024;
/** Far below HUGE, far above what a server of a few small skills holds. */
const MAX_PEAK_RSS = 512 * 1024 * 1024;

/** The peak resident memory of process `pid` (VmHWM), in bytes. */
function peakRss(pid: number): number {
  const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
}

describe('threat: a SKILL.md of a gigabyte in a folder `skillctl mcp --skills` serves', () => {
  const dir = tempDir('skillctl-mcp-huge-skill-md-');
  let client: Client | undefined;
  let stderr: () => string = () => '';

  before(async () => {
    skillMd(dir, 'skills', 'ok');
    skillMd(dir, 'skills', 'big');
    truncateSync(join(dir, 'skills', 'big', 'SKILL.md'), HUGE);
    ({ client, stderr } = await connect(dir, ['--registry', join(ROOT, 'manifests', 'registry'), '--no-audit', '--skills', 'skills']));
  });
  after(async () => {
    await client?.close();
  });

  it('three listings: the other skill served, the huge one left out by its size (MANIFEST_TOO_LARGE), never read into memory', async (t) => {
    const c = client as Client;
    for (let i = 0; i < 3; i++) await listsOnly(c, ['skill://ok/SKILL.md']);
    assert.match(stderr(), /MANIFEST_TOO_LARGE\s+SKILL\.md is 1073741824 bytes; the bound is 4194304/);
    const pid = (c.transport as StdioClientTransport).pid;
    if (pid === null || process.platform !== 'linux') {
      t.skip('no /proc here to read the server peak memory from');
      return;
    }
    const peak = peakRss(pid);
    assert.ok(peak > 0 && peak < MAX_PEAK_RSS, `the server peaked at ${Math.round(peak / 1048576)} MiB: it read the SKILL.md`);
  });
});
