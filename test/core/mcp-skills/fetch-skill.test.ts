// The bounds of what a pull reads (fetch-skill.ts, pull.ts), against a server stub with small
// limits: every answer is counted as it arrives, against the skill's bound and the pull's across
// skills; past either, no further request is sent and answers in flight are dropped, also when a
// late one fails; sizes the entries declare are added up before anything is read.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { pullFrom, type PullLimits, type PullRequest, type SkillServer } from '../../../src/core/mcp-skills/index.js';

const KiB = 1024;
const LIMITS: PullLimits = { fileBytes: 16 * KiB, totalBytes: 64 * KiB, pullBytes: 256 * KiB, files: 10_000, skills: 1_000, pages: 1_000, listed: 100_000 };
/** Requests fetch-skill.ts keeps in flight at once (READS_IN_FLIGHT). */
const IN_FLIGHT = 16;

const digestOf = (b: Buffer): string => `sha256:${createHash('sha256').update(b).digest('hex')}`;

interface Served {
  readonly uri: string;
  readonly bytes: Buffer;
}

/** A skill `name`: its SKILL.md and `count` files of `size` bytes, listed with their sizes or not. */
function skill(name: string, count: number, size: number, sized: boolean): { entry: Record<string, unknown>; served: Served[] } {
  const md = Buffer.from(`---\nname: ${name}\ndescription: A skill.\n---\n# ${name}\n`);
  const served = [{ uri: `skill://${name}/SKILL.md`, bytes: md }, ...Array.from({ length: count }, (_, i) => ({ uri: `skill://${name}/assets/f${i}.txt`, bytes: Buffer.alloc(size, 'a') }))];
  const resources = served.map((f) => ({ uri: f.uri, digest: digestOf(f.bytes), ...(sized ? { size: f.bytes.length } : {}) }));
  return { entry: { uri: `skill://${name}/SKILL.md`, frontmatter: { name, description: 'A skill.' }, resources }, served };
}

/** A server of those skills that counts the reads it answers; `failAfter`: the reads after that many fail. */
function stub(skills: ReturnType<typeof skill>[], failAfter?: number): SkillServer & { reads: number; asked: string[] } {
  const byUri = new Map(skills.flatMap((s) => s.served).map((f) => [f.uri, f]));
  const s = {
    directoryRead: false,
    reads: 0,
    asked: [] as string[],
    async request(method: string, params: Record<string, unknown>): Promise<unknown> {
      // An answer comes later than the request, as over a transport: requests overlap.
      await new Promise((resolve) => setImmediate(resolve));
      if (method === 'skills/list') return { skills: skills.map((k) => k.entry) };
      if (method === 'skills/get') return { skill: skills.find((k) => k.entry.uri === params.uri)?.entry };
      if (method === 'resources/list') return { resources: [...byUri.keys()].map((uri) => ({ uri, name: 'x' })) };
      if (method !== 'resources/read') throw new Error(`unexpected ${method}`);
      const uri = params.uri as string;
      s.asked.push(uri);
      s.reads++;
      if (failAfter !== undefined && s.reads > failAfter) throw new Error('the server went away');
      return { contents: [{ uri, mimeType: 'text/plain', text: byUri.get(uri)?.bytes.toString('utf8') }] };
    },
    close: async (): Promise<void> => undefined,
  };
  return s;
}

async function pulled(server: SkillServer, request: PullRequest): Promise<{ ok: boolean; codes: string[] }> {
  const r = await pullFrom(server, request, LIMITS);
  return { ok: r.ok, codes: [...new Set(r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code))].sort() };
}

describe('pull: bytes counted as they arrive', () => {
  it('one skill of 100 unsized files of 4 KiB: MCP_PULL_SKILL_TOO_LARGE once 64 KiB are passed, no request after', async () => {
    const server = stub([skill('big', 100, 4 * KiB, false)]);
    assert.deepEqual(await pulled(server, { uris: ['skill://big/SKILL.md'] }), { ok: false, codes: ['MCP_PULL_SKILL_TOO_LARGE'] });
    // 17 answers (SKILL.md and 16 files) pass 64 KiB; each before it let one more request go.
    assert.ok(server.reads <= 17 + IN_FLIGHT, `${server.reads} reads`);
  });

  it('a request in flight that fails after the bound is passed: the bound is reported, not the failure', async () => {
    const server = stub([skill('big', 100, 4 * KiB, false)], 20);
    assert.deepEqual(await pulled(server, { uris: ['skill://big/SKILL.md'] }), { ok: false, codes: ['MCP_PULL_SKILL_TOO_LARGE'] });
  });

  it('--all over ten unsized skills of 60 KiB each: MCP_PULL_TOO_LARGE past 256 KiB, later skills never asked for', async () => {
    const skills = Array.from({ length: 10 }, (_, k) => skill(`s${k}`, 15, 4 * KiB, false));
    const server = stub(skills);
    assert.deepEqual(await pulled(server, { all: true }), { ok: false, codes: ['MCP_PULL_TOO_LARGE'] });
    // Four skills fit (4 × 60 KiB); the fifth passes 256 KiB.
    assert.ok(server.asked.every((u) => /^skill:\/\/s[0-4]\//.test(u)), server.asked.filter((u) => !/^skill:\/\/s[0-4]\//.test(u)).join(', '));
  });

  it('--all over the same skills, sizes listed: MCP_PULL_TOO_LARGE before any file is read', async () => {
    const server = stub(Array.from({ length: 10 }, (_, k) => skill(`s${k}`, 15, 4 * KiB, true)));
    assert.deepEqual(await pulled(server, { all: true }), { ok: false, codes: ['MCP_PULL_TOO_LARGE'] });
    assert.equal(server.reads, 0);
  });

  it('four such skills, within both bounds: pulled', async () => {
    const server = stub(Array.from({ length: 4 }, (_, k) => skill(`s${k}`, 15, 4 * KiB, false)));
    assert.deepEqual(await pulled(server, { all: true }), { ok: true, codes: [] });
    assert.equal(server.reads, 4 * 16);
  });
});
