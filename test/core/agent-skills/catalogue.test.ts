// readPromptSkills: the skills of an <available_skills> block; a name used twice is reported.
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readPromptSkills } from '../../../src/core/agent-skills/index.js';
import { fixture } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

describe('readPromptSkills', () => {
  it('reads each folder in order, with its SKILL.md location', async () => {
    const dirs = ['minimal-skill', 'pdf-tools'].map((n) => ({ dir: fixture('agent-skills', 'valid', n), label: n }));
    const r = await readPromptSkills(dirs);
    assert.deepEqual(r.diagnostics.filter((d) => d.severity === 'error'), []);
    assert.deepEqual(r.skills.map((s) => s.name), ['minimal-skill', 'pdf-tools']);
    assert.ok(r.skills.every((s) => s.location.endsWith('SKILL.md')));
  });

  it('reports a name used by two folders (agents tell skills apart by name)', async () => {
    const copy = join(tempDir(), 'copy');
    cpSync(fixture('agent-skills', 'valid', 'minimal-skill'), copy, { recursive: true });
    const r = await readPromptSkills([
      { dir: fixture('agent-skills', 'valid', 'minimal-skill'), label: 'minimal-skill' },
      { dir: copy, label: 'copy' },
    ]);
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.file]),
      [['AGENT_SKILL_NAME_DUPLICATE', join('copy', 'SKILL.md')]],
    );
  });

  it('returns what read-properties refuses as findings', async () => {
    const r = await readPromptSkills([{ dir: fixture('agent-skills', 'invalid', 'frontmatter-missing'), label: 'x' }]);
    assert.deepEqual(r.skills, []);
    assert.ok(r.diagnostics.some((d) => d.severity === 'error'));
  });
});
