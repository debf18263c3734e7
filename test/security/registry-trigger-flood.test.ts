// Threat: a registry whose index holds so many distinct intent triggers that every match holds the thread `skillctl mcp` answers all sessions on.
// Matching splits and stems every distinct trigger of the registries in use at each call. An
// index within its own bounds (64 MiB, entries as a published capability.json allows) holds a
// million: a cloned repository committing such a `.skillctl/registry` (a few MB in git) cost
// 14 to 45 s of a core at every `registry match` and every `capability_registry_list` with a
// query, no session answered meanwhile (until the stop of 2026-12-01). Matching now reads at
// most 100,000 distinct triggers and refuses a view holding more (REGISTRY_TRIGGERS_TOO_MANY,
// exit 2), at once; listing and loading still work.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MATCH_TRIGGERS_MAX } from '../../src/core/registry/index.js';
import { Session } from '../../src/mcp/session.js';
import { skillctlIn } from '../helpers/git-pins.js';
import { removeDir, snapshot, tempDir } from '../helpers/project.js';

/** An index of `count` capabilities of 50 distinct triggers each (only the index: matching reads nothing else). */
function floodIndex(count: number): string {
  const capabilities = Array.from({ length: count }, (_, c) => ({
    capability_id: `cap${c}`,
    name: `Capability ${c}`,
    description: 'Matches everything.',
    intent_triggers: Array.from({ length: 50 }, (_, t) => `fetch web page variant${c}x${t}`),
    version: 'latest',
    digest: `sha256:${c.toString(16).padStart(64, '0')}`,
    tools: [],
    ui_schemas: [],
  }));
  return JSON.stringify({ registry_format: 'skillctl.registry.v1', capabilities });
}

describe('a registry index flooded with distinct intent triggers', () => {
  let root: string;
  let registry: string;
  // 2,100 capabilities: 105,000 distinct triggers, past the bound.
  const COUNT = Math.ceil(MATCH_TRIGGERS_MAX / 50) + 100;

  before(async () => {
    root = await tempDir('skillctl-trigger-flood-');
    registry = join(root, 'registry');
    await mkdir(registry);
    await writeFile(join(registry, 'index.json'), floodIndex(COUNT));
  });
  after(async () => removeDir(root));

  it('registry match: REGISTRY_TRIGGERS_TOO_MANY, exit 2, the registry unchanged', async () => {
    const before = await snapshot(registry);
    const r = skillctlIn(root, ['registry', 'match', '--registry', registry, '--json', 'fetch the web page']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, /REGISTRY_TRIGGERS_TOO_MANY/);
    assert.doesNotMatch(r.stdout + r.stderr, /cap0/);
    assert.deepEqual(await snapshot(registry), before);
  });

  it('capability_registry_list with a query (the MCP session): the same code as a tool error; listing still answers', async () => {
    const session = new Session(registry);
    const r = await session.match('fetch the web page');
    assert.deepEqual(r.ok ? 'matched' : r.error.code, 'REGISTRY_TRIGGERS_TOO_MANY');
    const listed = await session.list();
    assert.equal(listed.ok ? listed.capabilities.length : listed.error.code, COUNT);
  });

  it('at the bound, matching answers', async () => {
    const atBound = join(root, 'at-bound');
    await mkdir(atBound);
    await writeFile(join(atBound, 'index.json'), floodIndex(MATCH_TRIGGERS_MAX / 50));
    const r = await new Session(atBound).match('fetch the web page');
    assert.equal(r.ok ? r.matches.length : r.error.code, MATCH_TRIGGERS_MAX / 50);
  });
});
