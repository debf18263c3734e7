// Threat: a hostile MCP skills server floods `pull skill://…` (the host's memory). Files each
// within the bound of a file, listed without their sizes so that no check before reading sees
// them: the pull stops reading once the skill passes 64 MiB (no further request, answers in flight
// dropped). Ten skills each within the bound of a skill, for `--all`: past the pull's 256 MiB, by
// the sizes listed, before anything is read (the bound counted as answers arrive, across skills:
// test/core/mcp-skills/fetch-skill.test.ts). Each ends with the code and exit 1 and writes
// nothing; the server counts the resources/read requests it answered.
import assert from 'node:assert/strict';
import { cpSync, existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { json, skillctl } from '../helpers/cli.js';
import type { Lie } from '../helpers/mcp-skills-server.js';
import { SERVED, serverCommand } from '../helpers/pull-mcp.js';
import { tempDir } from '../helpers/tmp.js';

/** Requests fetch-skill.ts keeps in flight at once (READS_IN_FLIGHT). */
const IN_FLIGHT = 16;

interface PullDoc {
  readonly ok: boolean;
  readonly diagnostics: { code: string; severity: string }[];
}

/** Pulls from the server lying as told; the error codes, the exit status and the reads the server answered. */
function pull(lie: Lie, target: readonly string[]): { exit: number; codes: string[]; reads: number; project: string; said: string } {
  const served = tempDir('skillctl-flood-served-');
  cpSync(join(SERVED, 'pdf-processing'), join(served, 'pdf-processing'), { recursive: true });
  const project = realpathSync(tempDir('skillctl-flood-'));
  const count = join(served, 'reads');
  const r = skillctl(['pull', ...target, '--mcp', serverCommand(served, lie, count), '--json', '--timeout', '60'], { cwd: project, timeoutMs: 120_000 });
  const doc = json<PullDoc>(r);
  assert.equal(doc.ok, false);
  const codes = [...new Set(doc.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code))].sort();
  return { exit: r.code, codes, reads: existsSync(count) ? Number(readFileSync(count, 'utf8')) : 0, project, said: r.stdout + r.stderr };
}

describe('pull skill:// from a server that floods: stopped at the bound, nothing written', () => {
  it('one skill listing 200 files of 1 MiB without sizes: MCP_PULL_SKILL_TOO_LARGE after about 64 MiB, exit 1', () => {
    const r = pull('flood', ['skill://pdf-processing/SKILL.md']);
    assert.deepEqual([r.exit, r.codes], [1, ['MCP_PULL_SKILL_TOO_LARGE']], r.said);
    // Each answer before the bound (the skill's own 6 files, the 65 MiB that pass 64) lets one more
    // request go, plus those in flight; none once the bound is passed. Before: all 206.
    assert.ok(r.reads <= 6 + 65 + IN_FLIGHT, `${r.reads} reads answered`);
    assert.deepEqual(readdirSync(r.project), [], 'nothing is written');
  });

  it('--all over ten skills of 60 MiB each, sizes listed: MCP_PULL_TOO_LARGE (past 256 MiB) before any file is read, exit 1', () => {
    const r = pull('flood-all', ['--all']);
    assert.deepEqual([r.exit, r.codes, r.reads], [1, ['MCP_PULL_TOO_LARGE'], 0], r.said);
    assert.deepEqual(readdirSync(r.project), [], 'nothing is written');
  });
});
