// Threat: a hostile MCP skills server has `pull skill://…` write a git repository into the pulled
// skill's folder: its entry lists, with true digests, `.GIT/HEAD`, `.GIT/config` (core.fsmonitor
// set to a command) and the folders git wants, spelt in a case (or with a trailing dot, a
// zero-width joiner) that the check for `.git/` did not compare. On macOS and Windows the folder is
// `.git`: every git command run in the pulled skill (an agent's, an editor's, a shell prompt's)
// obeys that config and runs the command, and the project's git no longer sees the skill's files.
// Refused as `.git` is (MCP_PULL_URI_REFUSED, exit 1), in every spelling such a file system folds
// to it, nothing written; as are `node_modules/` and `.skillctl/` (test/core/mcp-skills/uri.test.ts).
import assert from 'node:assert/strict';
import { cpSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { json, skillctl } from '../helpers/cli.js';
import { SERVED, serverCommand } from '../helpers/pull-mcp.js';
import { tempDir } from '../helpers/tmp.js';

interface PullDoc {
  readonly ok: boolean;
  readonly diagnostics: { code: string; severity: string; message: string }[];
}

describe('pull skill:// from a server that lists a .GIT/ repository in the skill', () => {
  it('.GIT/config with core.fsmonitor, true digests: MCP_PULL_URI_REFUSED, exit 1, nothing written', () => {
    const served = tempDir('skillctl-git-alias-served-');
    cpSync(join(SERVED, 'pdf-processing'), join(served, 'pdf-processing'), { recursive: true });
    const project = realpathSync(tempDir('skillctl-git-alias-'));
    const r = skillctl(['pull', 'skill://pdf-processing/SKILL.md', '--mcp', serverCommand(served, 'git-alias'), '--json'], { cwd: project });
    const doc = json<PullDoc>(r);
    const errors = doc.diagnostics.filter((d) => d.severity === 'error');
    assert.deepEqual([r.code, doc.ok, [...new Set(errors.map((d) => d.code))]], [1, false, ['MCP_PULL_URI_REFUSED']], r.stdout + r.stderr);
    // Each of the repository's four files, named.
    assert.equal(errors.filter((d) => d.message.includes('/.GIT/')).length, 4);
    assert.deepEqual(readdirSync(project), [], 'nothing is written');
  });
});
