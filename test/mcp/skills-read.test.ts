// resources/read of a skill:// URI (src/mcp/skills.ts) over a catalogue whose reads share a pass
// of checks for READ_PASS_MS: a file the shared entry does not list yet, or no longer matches, is
// looked for in a fresh listing before the read is refused.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { servedCatalogue, SETTLE_MS } from '../../src/core/agent-skills/index.js';
import { readSkillResource, segmentsOf, skillUri, URI_PATH_BOUND, uriPathBound } from '../../src/mcp/skills.js';
import { RpcError } from '../../src/mcp/wire/errors.js';
import { tempDir } from '../helpers/tmp.js';

const TICK_MS = 30;

function project(): { root: string; dir: string } {
  const root = tempDir();
  const dir = join(root, 'word-count');
  mkdirSync(join(dir, 'references'), { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), '---\nname: word-count\ndescription: Count the words of a text. Use when asked how long a text is.\n---\n\n# word-count\n');
  writeFileSync(join(dir, 'references', 'a.md'), 'alpha\n');
  return { root, dir };
}

/** A catalogue whose clock stands still: every read is within the window of the first. */
function standing(root: string): ReturnType<typeof servedCatalogue> {
  const now = Date.now() + 10 * SETTLE_MS;
  return servedCatalogue([{ dir: root, label: 'skills' }], () => now);
}

const text = (r: Awaited<ReturnType<typeof readSkillResource>>): unknown => (r.contents[0] as { text?: string }).text;

describe('readSkillResource with reads sharing a pass', () => {
  it('a file added within the window is read (from a fresh listing); a URI no listing has is -32002', async () => {
    const { root, dir } = project();
    const c = standing(root);
    assert.equal(text(await readSkillResource(c, 'skill://word-count/references/a.md')), 'alpha\n');
    await sleep(TICK_MS);
    writeFileSync(join(dir, 'references', 'b.md'), 'beta\n');
    assert.equal(text(await readSkillResource(c, 'skill://word-count/references/b.md')), 'beta\n');
    await assert.rejects(readSkillResource(c, 'skill://word-count/references/c.md'), (err: unknown) => err instanceof RpcError && err.code === -32002);
  });

  it('a file edited within the window is answered with its new bytes, never the old entry', async () => {
    const { root, dir } = project();
    const c = standing(root);
    assert.equal(text(await readSkillResource(c, 'skill://word-count/references/a.md')), 'alpha\n');
    await sleep(TICK_MS);
    writeFileSync(join(dir, 'references', 'a.md'), 'omega\n');
    assert.equal(text(await readSkillResource(c, 'skill://word-count/references/a.md')), 'omega\n');
  });

  it('a skill deleted within the window is answered as a skill never served (-32002), and dropped', async () => {
    const { root, dir } = project();
    const c = standing(root);
    assert.equal(text(await readSkillResource(c, 'skill://word-count/references/a.md')), 'alpha\n');
    rmSync(dir, { recursive: true });
    for (const uri of ['skill://word-count/references/a.md', 'skill://word-count/SKILL.md']) {
      await assert.rejects(readSkillResource(c, uri), (err: unknown) => {
        assert.ok(err instanceof RpcError, String(err));
        assert.equal(err.code, -32002);
        assert.equal(err.message, `Resource not found: ${uri} is not a file of a skill this server serves`);
        return true;
      });
    }
    assert.deepEqual(c.digestPaths(), []);
  });
});

describe('readSkillResource: the bound on a URI (uriPathBound)', () => {
  const notFound = (err: unknown): boolean => err instanceof RpcError && err.code === -32002;

  it('a URI past it is -32002 at once, however many segments it has; the catalogue serves on', async () => {
    const { root } = project();
    const c = standing(root);
    for (const segments of [Math.floor((URI_PATH_BOUND.max + 1) / 2) + 1, 16_000, 100_000]) {
      const started = Date.now();
      await assert.rejects(readSkillResource(c, `skill://${Array(segments).fill('a').join('/')}`), notFound, String(segments));
      // Without the bound, 16,000 segments took 13 s (every split of the URI walked from the root);
      // with it, milliseconds. The bound is loose enough for a machine under heavy load.
      assert.ok(Date.now() - started < 5_000, `${segments} segments: ${Date.now() - started} ms`);
    }
    await assert.rejects(readSkillResource(c, `skill://word-count/${'x'.repeat(URI_PATH_BOUND.max)}`), notFound);
    assert.equal(text(await readSkillResource(c, 'skill://word-count/references/a.md')), 'alpha\n');
  });

  it('per platform: PATH_MAX bytes on POSIX systems, 32,767 UTF-16 units on Windows (node opens paths in their long form)', () => {
    assert.deepEqual(uriPathBound('linux'), { max: 4_096, unit: 'byte' });
    assert.deepEqual(uriPathBound('darwin'), { max: 4_096, unit: 'byte' });
    assert.deepEqual(uriPathBound('win32'), { max: 32_767, unit: 'utf16' });
    assert.deepEqual(URI_PATH_BOUND, process.platform === 'win32' ? uriPathBound('win32') : uriPathBound('linux'));
  });

  it('on POSIX systems: as many segments and bytes as a path the kernel opens is looked up, one more is not', () => {
    const posix = uriPathBound('linux');
    const of = (uri: string): string[] | undefined => segmentsOf(uri, posix);
    assert.equal(of(`skill://${Array(2_048).fill('a').join('/')}`)?.length, 2_048);
    assert.equal(of(`skill://${Array(2_049).fill('a').join('/')}`), undefined);
    // Bytes once decoded: a percent-encoded byte is three characters of the URI, a two-byte character six.
    assert.deepEqual(of(`skill://a/${'%41'.repeat(4_094)}`), ['a', 'A'.repeat(4_094)]);
    assert.equal(of(`skill://a/${'%41'.repeat(4_095)}`), undefined);
    assert.equal(of(`skill://a/${'%C3%A9'.repeat(2_047)}`)?.[1]?.length, 2_047);
    assert.equal(of(`skill://a/${'é'.repeat(2_048)}`), undefined);
  });

  it('on Windows: UTF-16 units, not bytes, so a path Windows opens is looked up past 4,096 bytes; one unit more is not', () => {
    const windows = uriPathBound('win32');
    const of = (uri: string): string[] | undefined => segmentsOf(uri, windows);
    assert.equal(of(`skill://${Array(16_384).fill('a').join('/')}`)?.length, 16_384);
    assert.equal(of(`skill://${Array(16_385).fill('a').join('/')}`), undefined);
    // 32,765 characters of three UTF-8 bytes (98,295 bytes), each nine characters of the URI: within the bound.
    assert.equal(of(`skill://a/${'%E2%82%AC'.repeat(32_765)}`)?.[1]?.length, 32_765);
    assert.equal(of(`skill://a/${'%E2%82%AC'.repeat(32_766)}`), undefined);
    // A character outside the BMP is two units (a surrogate pair), four bytes.
    assert.equal(of(`skill://a/${'%F0%9F%98%80'.repeat(16_382)}`)?.[1]?.length, 32_764);
    assert.equal(of(`skill://a/${'😀'.repeat(16_383)}`), undefined);
    // The same two-byte names: past the POSIX bound in bytes, within the Windows one.
    assert.equal(of(`skill://a/${'é'.repeat(4_000)}`)?.[1]?.length, 4_000);
    assert.equal(segmentsOf(`skill://a/${'é'.repeat(4_000)}`, uriPathBound('linux')), undefined);
  });

  it('the longest path a skill can hold is read: names of two-byte characters, percent-encoded in the URI', async () => {
    const { root, dir } = project();
    // Linux opens a path of at most PATH_MAX (4,096) bytes with its NUL: the listing holds nothing longer.
    const room = 4_095 - Buffer.byteLength(dir) - '/'.length;
    const name = 'é'.repeat(127);
    const long = `${Array(Math.floor((room - 'g.md'.length) / (2 * name.length + 1))).fill(name).join('/')}/g.md`;
    mkdirSync(join(dir, long, '..'), { recursive: true });
    writeFileSync(join(dir, long), 'long\n');
    const uri = skillUri('word-count', long);
    assert.ok(Buffer.byteLength(`word-count/${long}`) > 4_096 - 400 && uri.length > 3 * (4_096 - 400));
    assert.equal(text(await readSkillResource(standing(root), uri)), 'long\n');
  });
});

describe('readSkillResource: a file deep in a skill', () => {
  it('a file 1,000 directories deep is read at once, with its listed digest; a file not listed there is -32002', async () => {
    const { root, dir } = project();
    // One-character names: 1,000 levels are about 2 KB of path, within PATH_MAX.
    const deep = `${Array(1_000).fill('d').join('/')}/deep.md`;
    mkdirSync(join(dir, deep, '..'), { recursive: true });
    writeFileSync(join(dir, deep), 'deep\n');
    const c = standing(root);
    const uri = skillUri('word-count', deep);
    const started = Date.now();
    // The first read lists the skill; the second starts from its entry.
    assert.equal(text(await readSkillResource(c, uri)), 'deep\n');
    assert.equal(text(await readSkillResource(c, uri)), 'deep\n');
    await assert.rejects(readSkillResource(c, skillUri('word-count', `${deep}.missing`)), (err: unknown) => err instanceof RpcError && err.code === -32002);
    // Each read took about 9 s when every split of the URI was walked from the root (27 s for the
    // three); tens of milliseconds now. A bound that a loaded machine does not trip (3.4 s was seen).
    assert.ok(Date.now() - started < 10_000, `${Date.now() - started} ms`);
    const entry = (await c.get('word-count'))?.files.find((f) => f.path === deep);
    assert.deepEqual(entry && { size: entry.size, digest: entry.digest }, { size: 5, digest: `sha256:${createHash('sha256').update('deep\n').digest('hex')}` });
  });
});
