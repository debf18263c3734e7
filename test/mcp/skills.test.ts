// `skillctl mcp --skills` as an agent host meets it: the project's SKILL.md folders under the skill
// roots, served through the MCP Skills extension (skills/list, skills/get, resources/read), with
// digests the host can check. Driven with the SDK client over stdio.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ReadResourceResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { SETTLE_MS } from '../../src/core/agent-skills/index.js';
import { connect, GetResult, ListResult, rpcError, skillMd } from '../helpers/mcp-skills-client.js';
import { skillctl } from '../helpers/cli.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const EXTENSION = 'io.modelcontextprotocol/skills';
/** A project (a git work tree) with a skill in skills/ and one in .agents/skills/, a bundle in manifests/, and folders that are not served. */
function project(): string {
  const root = tempDir('skillctl-mcp-skills-');
  mkdirSync(join(root, '.git'));
  cpSync(fixture('pins', 'project'), root, { recursive: true });
  cpSync(fixture('agent-skills', 'pinnable', 'pdf-notes'), join(root, 'skills', 'pdf-notes'), { recursive: true });
  skillMd(root, '.agents/skills', 'word-count');
  // The same name again, in a later root: the first is served.
  skillMd(root, '.claude/skills', 'word-count', 'Another word counter.');
  // validate rejects it (no description): not served.
  cpSync(fixture('agent-skills', 'invalid', 'description-missing'), join(root, '.claude', 'skills', 'description-missing'), { recursive: true });
  // A link inside the folder: a host would find a file the listing cannot vouch for.
  skillMd(root, '.claude/skills', 'linked');
  symlinkSync('/etc/hostname', join(root, '.claude', 'skills', 'linked', 'notes.txt'));
  return root;
}

const sha256 = (b: Buffer): string => `sha256:${createHash('sha256').update(b).digest('hex')}`;

describe('skillctl mcp --skills: the skill roots over the MCP Skills extension', () => {
  const root = project();
  let s: Awaited<ReturnType<typeof connect>>;
  before(async () => {
    s = await connect(root, ['--skills', '--no-audit']);
  });
  after(async () => {
    await s.client.close();
  });

  it('declares the extension, and says on stderr what it serves and what it leaves out', () => {
    assert.deepEqual(s.client.getServerCapabilities()?.extensions, { [EXTENSION]: { directoryRead: true } });
    const err = s.stderr();
    assert.match(err, /^skillctl mcp: 3 skills under manifests, skills, \.agents\/skills, \.claude\/skills, \.github\/skills \(the default skill roots\)$/m);
    assert.match(err, /AGENT_SKILL_FIELD_MISSING/);
    assert.match(err, /BUNDLE_SYMLINK/);
    assert.match(err, /AGENT_SKILL_NAME_DUPLICATE {2}skill path "word-count" is also served from \.agents\/skills\/word-count; only that one is served/);
  });

  it('skills/list: each skill with its frontmatter and every file with a digest the host can check', async () => {
    const { skills } = await s.client.request({ method: 'skills/list', params: {} }, ListResult);
    // Root by root (manifests/, skills/, .agents/skills/), in path order within a root; the
    // skill.yaml bundle manifests/hello through the conversion's SKILL.md.
    assert.deepEqual(skills.map((k) => k.uri), ['skill://hello/SKILL.md', 'skill://pdf-notes/SKILL.md', 'skill://word-count/SKILL.md']);
    const pdf = skills[1];
    assert.equal(pdf?.frontmatter.name, 'pdf-notes');
    const dir = join(root, 'skills', 'pdf-notes');
    assert.deepEqual(
      pdf?.resources.map((r) => r.uri),
      ['SKILL.md', 'evals/cases.json', 'references/GUIDE.md', 'scripts/extract.py'].map((p) => `skill://pdf-notes/${p}`),
    );
    for (const r of pdf?.resources ?? []) {
      const bytes = readFileSync(join(dir, r.uri.slice('skill://pdf-notes/'.length)));
      assert.equal(r.digest, sha256(bytes), r.uri);
      assert.equal(r.size, bytes.length, r.uri);
    }
  });

  it('skills/get gives one entry; a URI it does not serve is -32602', async () => {
    const { skill } = await s.client.request({ method: 'skills/get', params: { uri: 'skill://word-count/SKILL.md' } }, GetResult);
    assert.equal(skill.frontmatter.description, 'Count the words of a text. Use when the user asks how long a text is.');
    for (const uri of ['skill://description-missing/SKILL.md', 'skill://linked/SKILL.md', 'skill://nope/SKILL.md', 'skill://pdf-notes/references/GUIDE.md', 'skill://pdf-notes', 'file:///etc/passwd']) {
      const e = await rpcError(s.client.request({ method: 'skills/get', params: { uri } }, GetResult));
      assert.equal(e.code, -32602, uri);
      assert.equal(e.message, `MCP error -32602: Invalid params: ${uri} is not the SKILL.md of a skill this server serves`);
    }
  });

  it('resources/read gives a listed file; anything else is -32002 and nothing is opened', async () => {
    const r = await s.client.request({ method: 'resources/read', params: { uri: 'skill://pdf-notes/references/GUIDE.md' } }, ReadResourceResultSchema);
    assert.deepEqual(r.contents, [{ uri: 'skill://pdf-notes/references/GUIDE.md', mimeType: 'text/markdown', text: readFileSync(join(root, 'skills', 'pdf-notes', 'references', 'GUIDE.md'), 'utf8') }]);
    for (const uri of ['skill://pdf-notes/../../../../etc/passwd', 'skill://pdf-notes/%2e%2e/%2e%2e/pins', 'skill://pdf-notes/missing.md', 'skill://linked/notes.txt']) {
      assert.equal((await rpcError(s.client.request({ method: 'resources/read', params: { uri } }, ReadResourceResultSchema))).code, -32002, uri);
    }
  });

  it('a URI longer than any file path is answered at once as unknown, on the direct path and the SDK\'s, and the server serves on', async () => {
    // 16,000 segments (32 KB): every split of it was tried, 13 s and 1.1 GB before the bound.
    const long = `skill://${Array(16_000).fill('a').join('/')}`;
    const DirResult = z.object({ resources: z.array(z.unknown()) });
    const started = Date.now();
    // Params of the URI alone are answered past the SDK's dispatch (resources.ts); with _meta, by the SDK's.
    for (const params of [{ uri: long }, { uri: long, _meta: {} }, { uri: `skill://pdf-notes/${Array(16_000).fill('a').join('/')}` }]) {
      assert.equal((await rpcError(s.client.request({ method: 'resources/read', params }, ReadResourceResultSchema))).code, -32002);
    }
    assert.equal((await rpcError(s.client.request({ method: 'resources/directory/read', params: { uri: long } }, DirResult))).code, -32602);
    assert.equal((await rpcError(s.client.request({ method: 'skills/get', params: { uri: `${long}/SKILL.md` } }, GetResult))).code, -32602);
    // Five requests, 13 s each before the bound: loose enough for a loaded machine.
    assert.ok(Date.now() - started < 8_000, `${Date.now() - started} ms`);
    const r = await s.client.request({ method: 'resources/read', params: { uri: 'skill://pdf-notes/references/GUIDE.md' } }, ReadResourceResultSchema);
    assert.equal(r.contents.length, 1);
  });

  it('a skill.contract.v1 bundle: the SKILL.md convert would write, the same bytes and digest on every listing', async () => {
    const get = (): Promise<z.infer<typeof GetResult>> => s.client.request({ method: 'skills/get', params: { uri: 'skill://hello/SKILL.md' } }, GetResult);
    const [a, b] = [await get(), await get()];
    assert.deepEqual(a, b);
    assert.deepEqual(a.skill.frontmatter, { name: 'hello', description: 'Say hello.', metadata: { 'skillctl.skill_id': 'demo.hello', 'skillctl.skill_version': '0.1.0' } });
    const md = await s.client.request({ method: 'resources/read', params: { uri: 'skill://hello/SKILL.md' } }, ReadResourceResultSchema);
    const text = (md.contents[0] as { text: string }).text;
    assert.equal(a.skill.resources.find((r) => r.uri === 'skill://hello/SKILL.md')?.digest, sha256(Buffer.from(text)));
    assert.match(text, /^---\nname: hello\n/);
  });

  it('resources/directory/read: the direct children from the listing, subdirectories as inode/directory; -32602 for a file or unknown directory', async () => {
    const DirResult = z.object({ resources: z.array(z.object({ uri: z.string(), mimeType: z.string().optional() })) });
    const r = await s.client.request({ method: 'resources/directory/read', params: { uri: 'skill://pdf-notes' } }, DirResult);
    assert.deepEqual(
      r.resources.map((x) => [x.uri, x.mimeType]),
      [
        ['skill://pdf-notes/SKILL.md', 'text/markdown'],
        ['skill://pdf-notes/evals', 'inode/directory'],
        ['skill://pdf-notes/references', 'inode/directory'],
        ['skill://pdf-notes/scripts', 'inode/directory'],
      ],
    );
    const refs = await s.client.request({ method: 'resources/directory/read', params: { uri: 'skill://pdf-notes/references' } }, DirResult);
    assert.deepEqual(refs.resources.map((x) => x.uri), ['skill://pdf-notes/references/GUIDE.md']);
    for (const uri of ['skill://pdf-notes/SKILL.md', 'skill://pdf-notes/nope', 'skill://linked', 'skill://pdf-notes/..']) {
      assert.equal((await rpcError(s.client.request({ method: 'resources/directory/read', params: { uri } }, DirResult))).code, -32602, uri);
    }
  });

  it('a file changed after a listing: read, it is the new bytes, and skills/get gives their digest, never the old one', async () => {
    const guide = join(root, 'skills', 'pdf-notes', 'references', 'GUIDE.md');
    const before = (await s.client.request({ method: 'skills/get', params: { uri: 'skill://pdf-notes/SKILL.md' } }, GetResult)).skill;
    const old = before.resources.find((r) => r.uri.endsWith('GUIDE.md'))?.digest;
    writeFileSync(guide, '# Guide, edited after the listing\n');
    const read = await s.client.request({ method: 'resources/read', params: { uri: 'skill://pdf-notes/references/GUIDE.md' } }, ReadResourceResultSchema);
    assert.equal((read.contents[0] as { text: string }).text, '# Guide, edited after the listing\n');
    const after = (await s.client.request({ method: 'skills/get', params: { uri: 'skill://pdf-notes/SKILL.md' } }, GetResult)).skill;
    const fresh = after.resources.find((r) => r.uri.endsWith('GUIDE.md'))?.digest;
    assert.notEqual(fresh, old);
    assert.equal(fresh, sha256(readFileSync(guide)));
  });

  it('prompts: each behaviour pack; resources: each capability skill_doc, read without loading it', async () => {
    const prompts = await s.client.listPrompts();
    assert.deepEqual(prompts.prompts.map((p) => p.name).sort(), ['daily', 'research', 'strict', 'teamlead']);
    const p = await s.client.getPrompt({ name: 'strict', arguments: { max_chars: '700' } });
    const first = p.messages[0]?.content;
    assert.ok(first?.type === 'text' && first.text.startsWith('skill profile=strict '), JSON.stringify(first));
    assert.equal((await rpcError(s.client.getPrompt({ name: 'nope' }))).code, -32602);
    const listed = await s.client.listResources();
    assert.ok(listed.resources.some((r) => r.uri === 'capability://git/skill.md'));
    assert.ok(listed.resources.some((r) => r.uri === 'skill://pdf-notes/references/GUIDE.md'));
    const doc = await s.client.readResource({ uri: 'capability://git/skill.md' });
    assert.match((doc.contents[0] as { text: string }).text, /^# /m);
    assert.ok(!(await s.client.listTools()).tools.some((t) => t.name.startsWith('git__')), 'reading the doc loaded nothing');
  });

  it('reads the folders afresh: a skill added while the server runs is listed', async () => {
    skillMd(root, 'skills', 'late-skill');
    const { skills } = await s.client.request({ method: 'skills/list', params: {} }, ListResult);
    assert.ok(skills.some((k) => k.uri === 'skill://late-skill/SKILL.md'));
  });
});

describe('skillctl mcp --skills: a skill deleted while a host only reads it', () => {
  it('skills/get is -32602 and resources/read -32002, as for a skill never served, with no skills/list between', async () => {
    const root = tempDir('skillctl-mcp-skills-gone-');
    mkdirSync(join(root, '.git'));
    for (const name of ['folder-gone', 'skill-md-gone']) {
      skillMd(root, 'skills', name);
      writeFileSync(join(root, 'skills', name, 'notes.md'), 'notes\n');
    }
    // Files older than SETTLE_MS: the server keeps the skills' entries, and reads use them while their shape holds.
    await sleep(SETTLE_MS + 200);
    const s = await connect(root, ['--skills', '--no-audit']);
    const read = (uri: string): Promise<unknown> => s.client.request({ method: 'resources/read', params: { uri } }, ReadResourceResultSchema);
    try {
      for (const [name, remove] of [
        ['folder-gone', join(root, 'skills', 'folder-gone')],
        ['skill-md-gone', join(root, 'skills', 'skill-md-gone', 'SKILL.md')],
      ] as const) {
        assert.equal((await s.client.request({ method: 'skills/get', params: { uri: `skill://${name}/SKILL.md` } }, GetResult)).skill.frontmatter.name, name);
        assert.deepEqual(await read(`skill://${name}/notes.md`), { contents: [{ uri: `skill://${name}/notes.md`, mimeType: 'text/markdown', text: 'notes\n' }] });
        await read(`skill://${name}/SKILL.md`);
        rmSync(remove, { recursive: true });
        // Read at once, most often within the reads' shared pass (READ_PASS_MS), where the entry
        // kept is used and its SKILL.md is found gone when opened; then its other file, then the entry.
        for (const uri of [`skill://${name}/SKILL.md`, `skill://${name}/notes.md`]) {
          const e = await rpcError(read(uri));
          assert.deepEqual(e, { code: -32002, message: `MCP error -32002: Resource not found: ${uri} is not a file of a skill this server serves` }, uri);
        }
        const uri = `skill://${name}/SKILL.md`;
        const e = await rpcError(s.client.request({ method: 'skills/get', params: { uri } }, GetResult));
        assert.deepEqual(e, { code: -32602, message: `MCP error -32602: Invalid params: ${uri} is not the SKILL.md of a skill this server serves` });
      }
    } finally {
      await s.client.close();
    }
  });
});

describe('skillctl mcp --skills DIR: skill paths, nesting, exclusions, pages', () => {
  it('paths below DIR (a prefix kept), a nested skill listed flat and as files of its outer skill, .git never served; 201 skills in two pages', async () => {
    const dir = tempDir('skillctl-mcp-skills-dir-');
    skillMd(dir, 'lib/acme/billing', 'refunds');
    skillMd(dir, 'lib', 'outer');
    skillMd(dir, 'lib/outer', 'inner');
    mkdirSync(join(dir, 'lib', 'outer', '.git'));
    writeFileSync(join(dir, 'lib', 'outer', '.git', 'config'), '[core]\n');
    for (let i = 0; i < 198; i++) skillMd(dir, 'many', `s${String(i).padStart(3, '0')}`);
    const c = await connect(dir, ['--skills', 'lib', 'many', '--no-audit']);
    try {
      const first = await c.client.request({ method: 'skills/list', params: {} }, ListResult.extend({ nextCursor: z.string().optional() }));
      assert.equal(first.skills.length, 200);
      assert.deepEqual(first.skills.slice(0, 3).map((k) => k.uri), ['skill://acme/billing/refunds/SKILL.md', 'skill://outer/SKILL.md', 'skill://outer/inner/SKILL.md']);
      assert.deepEqual(first.skills[1]?.resources.map((r) => r.uri), ['skill://outer/SKILL.md', 'skill://outer/inner/SKILL.md']);
      assert.equal(typeof first.nextCursor, 'string');
      const second = await c.client.request({ method: 'skills/list', params: { cursor: first.nextCursor } }, ListResult.extend({ nextCursor: z.string().optional() }));
      assert.deepEqual(second.skills.map((k) => k.uri), ['skill://s197/SKILL.md']);
      assert.equal(second.nextCursor, undefined);
      assert.equal((await rpcError(c.client.request({ method: 'skills/list', params: { cursor: 'bm9wZQ' } }, ListResult))).code, -32602);
      assert.equal((await rpcError(c.client.request({ method: 'resources/read', params: { uri: 'skill://outer/.git/config' } }, ReadResourceResultSchema))).code, -32002);
    } finally {
      await c.client.close();
    }
  });
});

describe('skillctl mcp --skills: where the list comes from', () => {
  it('without --skills, no extension and no skills/list', async () => {
    const c = await connect(project(), ['--no-audit']);
    try {
      assert.equal(c.client.getServerCapabilities()?.extensions, undefined);
      assert.equal((await rpcError(c.client.request({ method: 'skills/list', params: {} }, ListResult))).code, -32601);
    } finally {
      await c.client.close();
    }
  });

  it("follows the lock's skill_roots", async () => {
    const root = project();
    assert.equal(skillctl(['pin', '--all', '--skill-roots', 'skills'], { cwd: root }).code, 0);
    const c = await connect(root, ['--skills', '--no-audit']);
    try {
      const { skills } = await c.client.request({ method: 'skills/list', params: {} }, ListResult);
      assert.deepEqual(skills.map((k) => k.uri), ['skill://pdf-notes/SKILL.md']);
      assert.match(c.stderr(), /^skillctl mcp: 1 skill under skills \(skill_roots in the lock\)$/m);
    } finally {
      await c.client.close();
    }
  });

  it('a lock whose skill_roots cannot be used stops the server: exit 1, SKILL_ROOTS_INVALID', () => {
    const root = project();
    mkdirSync(join(root, 'pins'));
    writeFileSync(join(root, 'pins', 'skills.lock.json'), '{"lock_version":"skillctl.lock.v1","min_signers":0,"packs":[],"skill_roots":["../elsewhere"],"skills":[]}\n');
    const r = skillctl(['mcp', '--skills', '--no-audit'], { cwd: root });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^pins\/skills\.lock\.json\n {10}error {3}SKILL_ROOTS_INVALID {2}skill root "\.\.\/elsewhere": /);
  });
});
