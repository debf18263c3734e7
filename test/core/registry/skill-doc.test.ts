import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSkillDoc } from '../../../src/core/registry/index.js';

describe('skill.md reader', () => {
  it('reads front matter, the title, H2 sections with their H3 content, and code spans', () => {
    const doc = parseSkillDoc('---\ncapability_id: x\n---\n# X skill\n\n## When to use\ntext `A.v1`\n### Detail\nmore\n## Default Behaviour (v2)\n', 'skill.md');
    assert.deepEqual(doc.frontMatter?.document.data, { capability_id: 'x' });
    assert.deepEqual(doc.title, { text: 'X skill', line: 4 });
    assert.deepEqual(doc.sections.map((s) => [s.key, s.line]), [['when to use', 6], ['default behaviour', 10]]);
    assert.deepEqual(doc.sections[0]?.body.map((l) => l.text), ['text `A.v1`', '### Detail', 'more']);
    assert.deepEqual(doc.codeSpans, [{ text: 'A.v1', line: 7, column: 7 }]);
  });

  it('ignores headings and code spans inside fenced code, and reports an unclosed fence', () => {
    const doc = parseSkillDoc('# T\n```md\n## Not a section `X.v1`\n```\n## Tools\n~~~\n## Lost\n', 'skill.md');
    assert.deepEqual(doc.sections.map((s) => s.key), ['tools']);
    assert.deepEqual(doc.codeSpans, []);
    assert.deepEqual(doc.diagnostics.map((d) => [d.code, d.line]), [['SKILL_DOC_FENCE_UNCLOSED', 6]]);
  });

  it('reports front matter that is never closed or not a mapping', () => {
    assert.deepEqual(parseSkillDoc('---\ncapability_id: x\n# T\n', 'skill.md').diagnostics.map((d) => d.code), ['SKILL_DOC_FRONT_MATTER']);
    assert.deepEqual(parseSkillDoc('---\n- a\n---\n# T\n', 'skill.md').diagnostics.map((d) => d.code), ['SKILL_DOC_FRONT_MATTER']);
  });
});
