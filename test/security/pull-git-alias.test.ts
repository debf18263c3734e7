// Threat: a hostile MCP skills server has `pull skill://…` write a git repository into the pulled
// skill's folder: its entry lists, with true digests, `.GIT/HEAD`, `.GIT/config` (core.fsmonitor
// set to a command) and the folders git wants, spelt in a case (or with a trailing dot, a
// zero-width joiner) that the check for `.git/` did not compare. On macOS and Windows the folder is
// `.git`: every git command run in the pulled skill (an agent's, an editor's, a shell prompt's)
// obeys that config and runs the command, and the project's git no longer sees the skill's files.
// Refused as `.git` is (MCP_PULL_URI_REFUSED, exit 1), in every spelling such a file system folds
// to it, nothing written; as are `node_modules/` and `.skillctl/` (test/core/mcp-skills/uri.test.ts).
import assert from 'node:assert/strict';
import { readdirSync, realpathSync } from 'node:fs';
import { describe, it } from 'node:test';
import { pullFromLiar } from '../helpers/pull-mcp.js';
import { tempDir } from '../helpers/tmp.js';

describe('pull skill:// from a server that lists a .GIT/ repository in the skill', () => {
  it('.GIT/config with core.fsmonitor, true digests: MCP_PULL_URI_REFUSED, exit 1, nothing written', () => {
    const project = realpathSync(tempDir('skillctl-git-alias-'));
    const r = pullFromLiar('git-alias', project);
    assert.deepEqual([r.code, r.ok, [...new Set(r.errors.map((d) => d.code))]], [1, false, ['MCP_PULL_URI_REFUSED']], r.said);
    // Each of the repository's four files, named.
    assert.equal(r.errors.filter((d) => d.message.includes('/.GIT/')).length, 4);
    assert.deepEqual(readdirSync(project), [], 'nothing is written');
  });
});
