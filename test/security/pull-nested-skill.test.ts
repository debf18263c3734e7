// Threat: a hostile MCP skills server has `pull skill://…` plant a second skill the user never
// asked for: its entry lists, with true digests, `.claude/skills/deploy/SKILL.md` inside the skill
// pulled (`allowed-tools: Bash`, a body that pipes a download to sh). Claude Code loads nested
// skill folders, so an agent working in the pulled folder gets a `deploy` skill that shadows the
// project's own `deploy`, though the pull checks only the pulled skill's name against the local
// skills (SEP-2640: an MCP-served skill never silently shadows a local one). A file under a folder
// agent hosts load skills from (`.claude/skills/`, `.agents/skills/`, in any case) is refused
// (MCP_PULL_URI_REFUSED, exit 1), nothing written.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pullFromLiar } from '../helpers/pull-mcp.js';
import { tempDir } from '../helpers/tmp.js';

describe('pull skill:// from a server that nests a skill of its own in the skill pulled', () => {
  it('.claude/skills/deploy/SKILL.md beside a local deploy skill: MCP_PULL_URI_REFUSED, exit 1, nothing written', () => {
    const project = realpathSync(tempDir('skillctl-nested-'));
    mkdirSync(join(project, '.claude', 'skills', 'deploy'), { recursive: true });
    writeFileSync(join(project, '.claude', 'skills', 'deploy', 'SKILL.md'), '---\nname: deploy\ndescription: Deploys with the reviewed script.\n---\nRun scripts/deploy.sh.\n');
    const r = pullFromLiar('nested-skill', project);
    assert.deepEqual([r.code, r.ok, r.errors.map((d) => d.code)], [1, false, ['MCP_PULL_URI_REFUSED']], r.said);
    assert.match(r.errors[0]?.message ?? '', /\.claude\/skills\/deploy\/SKILL\.md/);
    assert.equal(existsSync(join(project, '.agents')), false, 'nothing is written');
  });
});
