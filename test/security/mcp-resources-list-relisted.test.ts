// Threat: `resources/list` of `skillctl mcp --skills DIR` cut each page from a fresh listing at
// the cursor's offset. A skill added (or removed) between two pages of one listing, by a skill
// run, a git checkout or anyone with write access to DIR, gave the client entries of two states
// under one listing: the files at the page boundary twice, the new skill's files never (and a
// removal: files never listed at all); a cursor replayed later was answered from whatever the tree
// then held. The pages of one listing are now cut from one snapshot taken at its first page, the
// cursor naming it; a cursor of a snapshot no longer kept (8 are) or never given is -32602. The
// pages of one `resources/directory/read` likewise (a snapshot per directory listed).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { scratch, treeState } from '../helpers/attack.js';
import { McpWire, type Message } from '../helpers/mcp-wire.js';

/** Resources a page of `resources/list` carries (src/mcp/resources.ts). */
const PAGE = 500;

function skill(root: string, name: string, files: number): void {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: The ${name} skill, for the listing test.\n---\n# ${name}\n`);
  for (let i = 0; i < files; i++) writeFileSync(join(dir, `f${String(i).padStart(3, '0')}.md`), `${name} ${i}\n`);
}

interface Page {
  readonly uris: string[];
  readonly nextCursor: string | undefined;
}

function pageOf(m: Message): Page {
  assert.equal(m.error, undefined, JSON.stringify(m.error));
  const r = m.result as { resources: { uri: string }[]; nextCursor?: string };
  return { uris: r.resources.map((x) => x.uri), nextCursor: r.nextCursor };
}

describe('mcp --skills: the pages of one resources/list are one listing, whatever changes between them', () => {
  const sc = scratch('skillctl-resources-relisted-');
  const skills = join(sc.work, 'skills');
  let wire: McpWire;
  let sentinel: Map<string, string>;
  before(async () => {
    sentinel = await treeState(sc.outside);
    // m: SKILL.md and 600 files, two pages.
    skill(skills, 'm', 600);
    wire = await McpWire.start(sc.work, ['--skills', skills, '--no-audit']);
  });
  after(async () => {
    await wire.close();
  });

  it('a skill added between the pages: the second page continues the first listing (no duplicate, no entry of the new state); a new listing has it', async () => {
    const first = pageOf(await wire.request('resources/list', {}));
    assert.equal(first.uris.length, PAGE);
    assert.equal(typeof first.nextCursor, 'string');
    // `a` sorts before `m`: a fresh listing at offset 500 repeats m's files 479 to 499.
    skill(skills, 'a', 20);
    const second = pageOf(await wire.request('resources/list', { cursor: first.nextCursor }));
    const all = [...first.uris, ...second.uris];
    assert.equal(new Set(all).size, all.length, `duplicates across the pages: ${all.filter((u, i) => all.indexOf(u) !== i).slice(0, 5).join(', ')}`);
    assert.deepEqual(all.filter((u) => u.startsWith('skill://a/')), [], 'an entry of the later state in the earlier listing');
    assert.deepEqual(all.filter((u) => u.startsWith('skill://')).length, 601, 'the listing as it was at its first page: m and its 600 files');
    assert.equal(second.nextCursor, undefined);
    // The same cursor, replayed, is the same page of the same listing.
    assert.deepEqual(pageOf(await wire.request('resources/list', { cursor: first.nextCursor })), second);
    // A new listing sees the tree as it is now.
    const now = pageOf(await wire.request('resources/list', {}));
    assert.ok(now.uris.includes('skill://a/SKILL.md'), 'a new listing lists the skill added');
    assert.deepEqual(await treeState(sc.outside), sentinel, 'nothing outside the scratch folder changed');
  });

  it('a cursor this server never gave, or of a listing no longer kept: -32602', async () => {
    const first = pageOf(await wire.request('resources/list', {}));
    // The offset cursor of the old encoding (`o500`), and a snapshot name never given.
    for (const cursor of [Buffer.from('o500').toString('base64url'), `0000000000000000.${Buffer.from('o500').toString('base64url')}`, 'nope']) {
      assert.equal((await wire.request('resources/list', { cursor })).error?.code, -32602, cursor);
    }
    // Eight listings started since: the first one's snapshot is dropped.
    for (let i = 0; i < 8; i++) pageOf(await wire.request('resources/list', {}));
    assert.equal((await wire.request('resources/list', { cursor: first.nextCursor })).error?.code, -32602);
  });
});

describe('mcp --skills: the pages of one resources/directory/read are one listing of that directory', () => {
  const sc = scratch('skillctl-directory-relisted-');
  const skills = join(sc.work, 'skills');
  let wire: McpWire;
  before(async () => {
    // d: SKILL.md and 1,100 files, two pages of 1,000.
    skill(skills, 'd', 1100);
    wire = await McpWire.start(sc.work, ['--skills', skills, '--no-audit']);
  });
  after(async () => {
    await wire.close();
  });

  it('files added between the pages: no duplicate, none of the later state; the cursor is good only for its directory', async () => {
    const sentinel = await treeState(sc.outside);
    const first = pageOf(await wire.request('resources/directory/read', { uri: 'skill://d' }));
    assert.equal(first.uris.length, 1000);
    // `a00.md` to `a29.md` sort before `f000.md`: a fresh listing at offset 1,000 repeats 30 files.
    for (let i = 0; i < 30; i++) writeFileSync(join(skills, 'd', `a${String(i).padStart(2, '0')}.md`), 'late\n');
    const second = pageOf(await wire.request('resources/directory/read', { uri: 'skill://d', cursor: first.nextCursor }));
    const all = [...first.uris, ...second.uris];
    assert.equal(new Set(all).size, all.length, `duplicates across the pages: ${all.filter((u, i) => all.indexOf(u) !== i).slice(0, 5).join(', ')}`);
    assert.deepEqual(all.filter((u) => /\/a\d\d\.md$/.test(u)), [], 'an entry of the later state in the earlier listing');
    assert.equal(all.length, 1101);
    mkdirSync(join(skills, 'd', 'sub'));
    writeFileSync(join(skills, 'd', 'sub', 'x.md'), 'x\n');
    assert.equal((await wire.request('resources/directory/read', { uri: 'skill://d/sub', cursor: first.nextCursor })).error?.code, -32602);
    assert.deepEqual(await treeState(sc.outside), sentinel, 'nothing outside the scratch folder changed');
  });
});
