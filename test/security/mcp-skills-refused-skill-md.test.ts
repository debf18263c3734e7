// Threat: a hostile repository holds many skill folders whose SKILL.md `skillctl mcp --skills`
// refuses (no description), each padded to just under the 4 MiB bound with zeros (a few kilobytes
// in git), so that every listing reads and parses them all again. A refused skill was not kept:
// each `skills/list` and `resources/list` read every such SKILL.md whole, on the thread every
// session shares (200 of them: 800 MB a listing; until the stop of 2026-12-01). Now a refusal is
// kept by the identities of the folder's files, and holds until one of them changes.
import assert from 'node:assert/strict';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connect, listingsCpu, listsOnly, skillMd } from '../helpers/mcp-skills-client.js';
import { ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const FOLDERS = 200;
/** Under MANIFEST_MAX_BYTES (4 MiB): read whole, then refused for what it says. */
const PADDED = 4 * 1024 * 1024 - 1024;

describe('threat: many refused SKILL.md files of 4 MiB in the folders `skillctl mcp --skills` serves', () => {
  const dir = tempDir('skillctl-mcp-refused-skill-md-');
  let client: Client | undefined;
  let stderr: () => string = () => '';

  before(async () => {
    skillMd(dir, 'skills', 'ok');
    for (let i = 0; i < FOLDERS; i++) {
      const folder = join(dir, 'skills', `refused-${i}`);
      mkdirSync(folder);
      writeFileSync(join(folder, 'SKILL.md'), `---\nname: refused-${i}\n---\n`);
      truncateSync(join(folder, 'SKILL.md'), PADDED);
    }
    // Settled (served-walk.ts, SETTLE_MS): what the listings keep holds from the next one.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    ({ client, stderr } = await connect(dir, ['--registry', join(ROOT, 'manifests', 'registry'), '--no-audit', '--skills', 'skills']));
  });
  after(async () => {
    await client?.close();
  });

  it('listings after the first: every folder still refused, none of them read again', async (t) => {
    const c = client as Client;
    await listsOnly(c, ['skill://ok/SKILL.md']);
    assert.match(stderr(), /refused-199/);
    const spent = await listingsCpu(c, 3, ['skill://ok/SKILL.md']);
    if (spent === undefined) return t.skip('no /proc here to read the server CPU time from');
    assert.ok(spent < 1, `three listings took ${spent.toFixed(2)} s of CPU: the refused SKILL.md files were read again`);
  });
});
