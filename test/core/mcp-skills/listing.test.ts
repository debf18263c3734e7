// The bytes of a pull's listings (listing.ts): skills/list, resources/list and the directory walk
// are bounded in pages and in entries, but each entry is as long as the server makes it (a
// description, a URI); every page is counted as it arrives against the pull's bound, so a server
// cannot have the host keep 1,000 pages of the largest message each (32 GiB at the default bounds).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { pullFrom, ServerFailure, type PullLimits, type SkillServer } from '../../../src/core/mcp-skills/index.js';

const KiB = 1024;
const LIMITS: PullLimits = { fileBytes: 16 * KiB, totalBytes: 64 * KiB, pullBytes: 256 * KiB, files: 10_000, skills: 1_000, pages: 1_000, listed: 100_000 };
const PAGES = 1_000;
const LONG = 'x'.repeat(64 * KiB);

const md = (name: string, description: string): string => `---\nname: ${name}\ndescription: ${description}\n---\n`;
const digestOf = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/** A server whose listings run to PAGES pages of one entry each, long in the listing `long`; `pages` counts the pages of that one it answered. */
function stub(long: 'skills' | 'resources' | 'directory'): SkillServer & { pages: number } {
  const entry = (i: number): Record<string, unknown> => {
    const name = `s${i}`;
    const description = long === 'skills' ? LONG : 'short';
    return { uri: `skill://${name}/SKILL.md`, frontmatter: { name, description }, resources: [{ uri: `skill://${name}/SKILL.md`, digest: digestOf(md(name, description)) }] };
  };
  const page = (cursor: unknown, item: (i: number) => unknown, key: string): Record<string, unknown> => {
    const i = typeof cursor === 'string' ? Number(cursor) : 0;
    return { [key]: [item(i)], ...(i + 1 < PAGES ? { nextCursor: String(i + 1) } : {}) };
  };
  const s = {
    directoryRead: long === 'directory',
    pages: 0,
    async request(method: string, params: Record<string, unknown>): Promise<unknown> {
      await new Promise((resolve) => setImmediate(resolve));
      if (method === 'skills/get') return { skill: entry(0) };
      if (method === 'skills/list') {
        s.pages++;
        return page(params.cursor, entry, 'skills');
      }
      if (method === 'resources/list' || method === 'resources/directory/read') {
        const longHere = (long === 'resources') === (method === 'resources/list');
        if (longHere) s.pages++;
        // Files of no skill asked for: only their length matters.
        return page(params.cursor, (i) => ({ uri: `skill://other/${longHere ? LONG : 'f'}${i}`, name: 'x' }), 'resources');
      }
      if (method !== 'resources/read') throw new Error(`unexpected ${method}`);
      const name = /^skill:\/\/(s\d+)\//.exec(params.uri as string)?.[1] as string;
      return { contents: [{ uri: params.uri, text: md(name, long === 'skills' ? LONG : 'short') }] };
    },
    close: async (): Promise<void> => undefined,
  };
  return s;
}

/** The error codes of the pull: its findings, or the failure that ended it (pullSkills makes that a finding). */
async function codes(server: SkillServer, all: boolean): Promise<string[]> {
  try {
    const r = await pullFrom(server, all ? { all: true } : { uris: ['skill://s0/SKILL.md'] }, LIMITS);
    return [...new Set(r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code))].sort();
  } catch (err) {
    if (err instanceof ServerFailure) return [err.diagnostic.code];
    throw err;
  }
}

describe("pull: a listing's bytes counted as its pages arrive", () => {
  for (const [long, all] of [['skills', true], ['resources', false], ['directory', false]] as const) {
    it(`${PAGES} pages of ${long === 'skills' ? 'skills/list' : long === 'resources' ? 'resources/list' : 'resources/directory/read'}, one entry of 64 KiB each: MCP_PULL_TOO_LARGE past 256 KiB, no page after`, async () => {
      const server = stub(long);
      assert.deepEqual(await codes(server, all), ['MCP_PULL_TOO_LARGE']);
      // Four pages fit in 256 KiB; the fifth passes it, and no page is asked for after.
      assert.ok(server.pages <= 5, `${server.pages} pages answered`);
    });
  }
});
