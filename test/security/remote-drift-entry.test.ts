// Threat: a hostile MCP skills server answers `verify-pins --remote` with an entry that a pull would
// refuse, so that the check of a pinned approval says nothing changed while the server serves
// another resource set: skills/get for the pinned URI answered with the entry of another URI, or
// one that lists a pinned file twice (first with a new digest, then under a percent-encoded
// spelling of its URI with the pinned digest), which the comparison, keeping the last entry of a
// path, passed (until the stop of 2026-11-30). The entry is checked as a pull checks it: another
// URI is MCP_PULL_URI_REFUSED, a file listed twice MCP_PULL_RESOURCE_DUPLICATE.
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sha256 } from '../../src/core/digest/index.js';
import { remoteDrift, type McpOrigin } from '../../src/core/mcp-skills/index.js';
import type { Lie } from '../helpers/mcp-skills-server.js';
import { SERVED, SERVER } from '../helpers/pull-mcp.js';
import { tempDir } from '../helpers/tmp.js';

const SKILL = join(SERVED, 'pdf-processing');
const FILES = ['SKILL.md', 'assets/logo.png', 'references/FORMS.md', 'scripts/extract.py', 'templates/invoice.md', 'templates/regional/eu-invoice.md'];

/** The pin of pdf-processing as a pull from the honest server records it; the server serves a copy of that skill alone (the one its lies are about). */
function origin(lie?: Lie): McpOrigin {
  const served = tempDir('skillctl-drift-served-');
  cpSync(SKILL, join(served, 'pdf-processing'), { recursive: true });
  const files = FILES.map((path) => {
    const bytes = readFileSync(join(SKILL, path));
    return { path, digest: sha256(bytes), size: bytes.length };
  });
  return { server: { command: [process.execPath, SERVER, '--dir', served, ...(lie !== undefined ? ['--lie', lie] : [])] }, uri: 'skill://pdf-processing/SKILL.md', files };
}

const check = (lie?: Lie): ReturnType<typeof remoteDrift> => remoteDrift(origin(lie), { cwd: process.cwd(), timeoutMs: 30_000, file: 'vendor/pdf-processing' });

describe('threat: verify-pins --remote answered with an entry a pull would refuse', () => {
  it('the honest server: no drift (the baseline the lies must not reach)', async () => {
    assert.deepEqual(await check(), []);
  });

  it('skills/get answers for the pinned URI with the entry of another URI: MCP_PULL_URI_REFUSED', async () => {
    const found = await check('other-entry');
    assert.deepEqual(found.map((d) => [d.code, d.file]), [['MCP_PULL_URI_REFUSED', 'vendor/pdf-processing']]);
  });

  it('a pinned file listed first with a new digest, then as %2E with the pinned one: MCP_PULL_RESOURCE_DUPLICATE', async () => {
    const found = await check('aliased');
    assert.deepEqual(found.map((d) => [d.code, d.file]), [['MCP_PULL_RESOURCE_DUPLICATE', 'vendor/pdf-processing']]);
    assert.match(found[0]?.message ?? '', /%2E/);
  });
});
