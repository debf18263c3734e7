import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { projectWrite, projectWriteInto } from '../../../src/core/policy/project-writes.js';

describe('projectWrite: a write grant over a file, outside what its project holds', () => {
  const whole = { root: '/p', source: '/p/skillctl.policy.yaml', fsWrite: ['/p'] };

  it('finds the grant and its policy for a file inside it; none for what the project holds', () => {
    assert.deepEqual(projectWrite('/p/conf/x.yaml', '/p/conf/x.yaml', [whole]), { grant: '/p', policy: whole });
    for (const held of ['/p/.skillctl/x.yaml', '/p/pins/x.yaml', '/p/skillctl.policy.yaml']) assert.equal(projectWrite(held, held, [whole]), undefined, held);
  });
});

describe('projectWriteInto: a write grant that reaches into a folder mcp serves', () => {
  const policy = (fsWrite: string[]) => ({ root: '/p', source: '/p/skillctl.policy.yaml', fsWrite });

  it('finds a grant that holds the folder, and one that lies inside it', () => {
    assert.equal(projectWriteInto('/p/shared/reg', '/p/shared/reg', [policy(['/p/shared'])])?.grant, '/p/shared');
    assert.equal(projectWriteInto('/p/skills', '/p/skills', [policy(['/p/skills/generated'])])?.grant, '/p/skills/generated');
  });

  it("leaves out what the grant's project holds (.skillctl/) and the folders the command says every run holds", () => {
    assert.equal(projectWriteInto('/p/.skillctl/registry', '/p/.skillctl/registry', [policy(['/p'])]), undefined);
    assert.equal(projectWriteInto('/p/skills', '/p/skills', [policy(['/p'])], ['/p/skills']), undefined);
    assert.equal(projectWriteInto('/p/skills', '/p/skills', [policy(['/p/skills/generated'])], ['/p/skills']), undefined);
  });

  it('judges the real path too, and grants beside the folder not at all', () => {
    assert.equal(projectWriteInto('/q/link', '/p/shared/reg', [policy(['/p/shared'])])?.grant, '/p/shared');
    assert.equal(projectWriteInto('/p/reg', '/p/reg', [policy(['/p/reg2', '/p/out'])]), undefined);
  });
});
