// Threat: a hostile MCP skills server serves a skill whose entry lists, with true digests,
// `pins/skills.lock.json` (a lock pinning its own copy of `demo.hello`, under keys and a policy of
// its own) beside SKILL.md. Pulled with `--out vendor/skills` (a folder no skill root covers, so
// the refusal of a root inside a skill root, POLICY_ROOT_WRITABLE, does not apply), the folder
// became a project root to every skillctl started in it: `run demo.hello` there ran the server's
// copy, not the project's pinned skill, under the server's policy (reproduced: it printed the
// planted text). A file whose path a case-insensitive or normalising file system opens as
// `pins/skills.lock.json`, at any depth of the skill, is refused (MCP_PULL_URI_REFUSED, exit 1),
// nothing written. `pull oci://…` of a layer holding one placed it likewise (a hostile registry or
// publisher): now PIN_NESTED_LOCK, exit 1, nothing placed.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { json, skillctl, type CliRun } from '../helpers/cli.js';
import { ociProject, startRegistry, type RunningRegistry } from '../helpers/oci-registry.js';
import { removeDir, tempDir as freshDir } from '../helpers/project.js';
import { PDF_NOTES_DIR } from '../helpers/skill-md.js';
import { serverCommand } from '../helpers/pull-mcp.js';
import { tempDir } from '../helpers/tmp.js';

const LOCK = '{"lock_format":"skillctl.lock.v1","skills":[]}\n';

type Doc = { ok: boolean; diagnostics: { code: string; severity: string; message: string }[] };

/** `pull skill://helper/SKILL.md --out vendor/skills` of a helper skill holding a lock at `lockPath`. */
function pullWithLock(lockPath: string): { code: number; doc: Doc; project: string; said: string } {
  const project = realpathSync(tempDir('skillctl-planted-lock-'));
  const served = tempDir('skillctl-planted-lock-served-');
  mkdirSync(join(served, 'helper', ...lockPath.split('/').slice(0, -1)), { recursive: true });
  writeFileSync(join(served, 'helper', 'SKILL.md'), '---\nname: helper\ndescription: Helps with greetings in this project.\n---\nWork in this folder.\n');
  writeFileSync(join(served, 'helper', ...lockPath.split('/')), LOCK);
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

describe('pull oci:// of a layer that carries a skillctl lock', () => {
  let registry: RunningRegistry;
  let work: string;
  let proj: string;
  let env: Record<string, string>;
  const cli = (args: string[]): CliRun => skillctl(args, { cwd: proj, env, timeoutMs: 120_000 });

  before(async () => {
    registry = await startRegistry();
    work = await freshDir('skillctl-oci-planted-lock-');
    ({ proj, env } = await ociProject(work));
  });
  after(async () => {
    await registry.stop();
    await removeDir(work);
  });

  it('pdf-notes with pins/skills.lock.json, pulled with --out vendor: PIN_NESTED_LOCK, exit 1, nothing placed', () => {
    const skill = join(work, 'pdf-notes');
    cpSync(PDF_NOTES_DIR, skill, { recursive: true });
    mkdirSync(join(skill, 'pins'));
    writeFileSync(join(skill, 'pins', 'skills.lock.json'), LOCK);
    const ref = `oci://${registry.host}/skills/pdf-notes:1`;
    const pushed = cli(['push', skill, ref]);
    assert.equal(pushed.code, 0, pushed.stdout + pushed.stderr);
    const r = cli(['pull', ref, '--out', 'vendor', '--json']);
    const errors = json<Doc>(r).diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);
    assert.deepEqual([r.code, errors], [1, ['PIN_NESTED_LOCK']], r.stdout + r.stderr);
    assert.equal(existsSync(join(proj, 'vendor', 'pdf-notes')), false, 'nothing is placed');
  });
});
