import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { projectWriteInto } from '../../../src/core/policy/nested-root.js';
import { exposedServedFolder } from '../../../src/core/policy/served-place.js';

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

describe('exposedServedFolder', () => {
  it('is one warning naming the folder, the grant and the policy; nothing without a grant', () => {
    const write = { grant: '/p/shared', policy: { root: '/p', source: '/p/skillctl.policy.yaml', fsWrite: ['/p/shared'] } };
    const [d] = exposedServedFolder('/p/shared/reg', 'the registry', write);
    assert.deepEqual(d && [d.code, d.severity, d.file, d.message], [
      'SERVED_FOLDER_WRITABLE',
      'warning',
      '/p/shared/reg',
      'the registry /p/shared/reg and /p/shared, which the policy of the project /p (/p/skillctl.policy.yaml) lets skills write, overlap: a skill run there could change what this server offers its agent',
    ]);
    assert.deepEqual(exposedServedFolder('/p/reg', 'the registry', undefined), []);
  });
});
