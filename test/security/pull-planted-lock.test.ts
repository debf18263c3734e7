// Threat: a hostile MCP skills server serves a skill whose entry lists, with true digests,
// `pins/skills.lock.json` (a lock pinning its own copy of `demo.hello`, under keys and a policy of
// its own) beside SKILL.md. Pulled with `--out vendor/skills` (a folder no skill root covers, so
// the refusal of a root inside a skill root, POLICY_ROOT_WRITABLE, does not apply), the folder
// became a project root to every skillctl started in it: `run demo.hello` there ran the server's
// copy, not the project's pinned skill, under the server's policy (reproduced: it printed the
// planted text). A file whose path a case-insensitive or normalising file system opens as
// `pins/skills.lock.json`, at any depth of the skill, is refused (MCP_PULL_URI_REFUSED, exit 1),
// nothing written.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { json, skillctl } from '../helpers/cli.js';
import { serverCommand } from '../helpers/pull-mcp.js';
import { tempDir } from '../helpers/tmp.js';

type Doc = { ok: boolean; diagnostics: { code: string; severity: string; message: string }[] };

/** `pull skill://helper/SKILL.md --out vendor/skills` of a helper skill holding a lock at `lockPath`. */
function pullWithLock(lockPath: string): { code: number; doc: Doc; project: string; said: string } {
  const project = realpathSync(tempDir('skillctl-planted-lock-'));
  const served = tempDir('skillctl-planted-lock-served-');
  mkdirSync(join(served, 'helper', ...lockPath.split('/').slice(0, -1)), { recursive: true });
  writeFileSync(join(served, 'helper', 'SKILL.md'), '---\nname: helper\ndescription: Helps with greetings in this project.\n---\nWork in this folder.\n');
  writeFileSync(join(served, 'helper', ...lockPath.split('/')), '{"lock_format":"skillctl.lock.v1","skills":[]}\n');
  const r = skillctl(['pull', 'skill://helper/SKILL.md', '--mcp', serverCommand(served), '--out', 'vendor/skills', '--json'], { cwd: project });
  return { code: r.code, doc: json<Doc>(r), project, said: r.stdout + r.stderr };
}

describe('pull skill:// of a skill that carries a skillctl lock', () => {
  for (const lockPath of ['pins/skills.lock.json', 'tools/Pins/Skills.lock.json']) {
    it(`${lockPath} in the skill: MCP_PULL_URI_REFUSED, exit 1, nothing written`, () => {
      const r = pullWithLock(lockPath);
      const errors = r.doc.diagnostics.filter((d) => d.severity === 'error');
      assert.deepEqual([r.code, r.doc.ok, errors.map((d) => d.code)], [1, false, ['MCP_PULL_URI_REFUSED']], r.said);
      assert.match(errors[0]?.message ?? '', /pins\/skills\.lock\.json/i);
      assert.equal(existsSync(join(r.project, 'vendor')), false, 'nothing is written');
    });
  }
});
