// Threat: a hostile repository holds a skill.contract.v1 bundle that `skillctl mcp --skills`
// refuses (its content_digest does not match its files) beside a file of a gigabyte (zeros: a few
// megabytes in a git repository), so that every listing hashes that gigabyte again. A refused
// skill was not kept, so each `skills/list` and `resources/list` validated the bundle afresh,
// hashing every byte of it (4 s of a core a gigabyte, up to the 2 GiB a bundle may hold, for each
// such folder: a host's listing timed out; until the stop of 2026-12-01). Now a refusal is kept
// as an entry is, by the identities of the folder's files, and holds until one of them changes.
import assert from 'node:assert/strict';
import { cpSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connect, listingsCpu, listsOnly, skillMd } from '../helpers/mcp-skills-client.js';
import { ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const HUGE = 1024 * 1024 * 1024;

describe('threat: a refused contract bundle beside a gigabyte in a folder `skillctl mcp --skills` serves', () => {
  const dir = tempDir('skillctl-mcp-refused-contract-');
  let client: Client | undefined;
  let stderr: () => string = () => '';

  before(async () => {
    skillMd(dir, 'skills', 'ok');
    const bundle = join(dir, 'skills', 'text.stats');
    cpSync(join(ROOT, 'manifests', 'examples', 'text.stats'), bundle, { recursive: true });
    writeFileSync(join(bundle, 'big.bin'), '');
    truncateSync(join(bundle, 'big.bin'), HUGE);
    // Settled (served-walk.ts, SETTLE_MS): what the listings keep holds from the next one.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    ({ client, stderr } = await connect(dir, ['--registry', join(ROOT, 'manifests', 'registry'), '--no-audit', '--skills', 'skills']));
  });
  after(async () => {
    await client?.close();
  });

  it('listings after the first: the bundle still refused (CONTENT_DIGEST_MISMATCH), its gigabyte not hashed again', async (t) => {
    const c = client as Client;
    await listsOnly(c, ['skill://ok/SKILL.md']);
    assert.match(stderr(), /CONTENT_DIGEST_MISMATCH/);
    const spent = await listingsCpu(c, 3, ['skill://ok/SKILL.md']);
    if (spent === undefined) return t.skip('no /proc here to read the server CPU time from');
    // Hashing the gigabyte is seconds of CPU each time; three listings of two small skills, a fraction of one.
    assert.ok(spent < 1, `three listings took ${spent.toFixed(2)} s of CPU: the refused bundle was hashed again`);
    // The refusal holds: the same finding, said once.
    assert.equal(stderr().match(/CONTENT_DIGEST_MISMATCH/g)?.length, 1, stderr());
  });
});
