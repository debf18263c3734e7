import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { plantableRoot, writablePolicyFile } from '../../../src/core/policy/nested-root.js';

describe("plantableRoot: a nested project root is obeyed only where no enclosing project's skills may write", () => {
  const outer = { root: '/p', source: '/p/skillctl.policy.yaml', fsWrite: ['/p/ws'] };

  it('refuses a policy inside an enclosing write grant, naming the file, the grant and the enclosing policy', () => {
    const d = plantableRoot({ policy: '/p/ws/sub/skillctl.policy.yaml' }, [outer]);
    assert.deepEqual(d && [d.code, d.message, d.hint], [
      'POLICY_ROOT_WRITABLE',
      '/p/ws/sub/skillctl.policy.yaml lies inside /p/ws, which the policy of the enclosing project /p (/p/skillctl.policy.yaml) lets skills write: a skill run there could have made this policy, and a run started here would obey it',
      'keep a policy of your own in /p/.skillctl/ (every run of /p holds it read-only; its relative paths name /p) and pass it with --policy, or grant fs.write in /p/skillctl.policy.yaml less than this folder',
    ]);
  });

  it('refuses a lock there too, with its own way out', () => {
    const d = plantableRoot({ lock: '/p/ws/sub/pins/skills.lock.json' }, [outer]);
    assert.deepEqual(d && [d.code, d.hint], ['POLICY_ROOT_WRITABLE', 'run from /p, or grant fs.write in /p/skillctl.policy.yaml less than this folder']);
  });

  it('judges every enclosing project, not only the nearest', () => {
    const near = { root: '/p/ws/mid', source: '/p/ws/mid/skillctl.policy.yaml', fsWrite: ['/p/ws/mid/out'] };
    assert.equal(plantableRoot({ policy: '/p/ws/mid/sub/skillctl.policy.yaml' }, [near, outer])?.code, 'POLICY_ROOT_WRITABLE');
  });

  it('accepts a nested root outside every enclosing write grant, on segment boundaries', () => {
    assert.equal(plantableRoot({ policy: '/p/ws2/skillctl.policy.yaml', lock: '/p/ws2/pins/skills.lock.json' }, [outer]), undefined);
    assert.equal(plantableRoot({}, [outer]), undefined);
    assert.equal(plantableRoot({ policy: '/p/ws/skillctl.policy.yaml' }, []), undefined);
  });
});

describe('writablePolicyFile: a --policy file is obeyed only where no skill of a project that holds it may rewrite it', () => {
  const whole = { root: '/p', source: '/p/skillctl.policy.yaml', fsWrite: ['/p'] };

  it('refuses a policy inside a write grant, naming the file, the grant and the policy that grants it', () => {
    const d = writablePolicyFile('/p/conf/ci.policy.yaml', '/p/conf/ci.policy.yaml', [whole]);
    assert.deepEqual(d && [d.code, d.message, d.hint], [
      'POLICY_FILE_WRITABLE',
      '/p/conf/ci.policy.yaml lies inside /p, which the policy of the project /p (/p/skillctl.policy.yaml) lets skills write, and no run of that project holds it: a skill run there could have rewritten this policy',
      'keep a policy of your own in /p/.skillctl/ (every run of /p holds it read-only; its relative paths name /p), or outside every folder a policy lets skills write, or grant fs.write in /p/skillctl.policy.yaml less than this folder',
    ]);
  });

  it('accepts what every run of that project holds: its own policy, .skillctl/ and pins/', () => {
    for (const file of ['/p/skillctl.policy.yaml', '/p/.skillctl/ci.policy.yaml', '/p/.skillctl/policies/ci.yaml', '/p/pins/ci.policy.yaml']) {
      assert.equal(writablePolicyFile(file, file, [whole]), undefined, file);
    }
  });

  it('refuses any other file: another policy at the root, one below it', () => {
    for (const file of ['/p/ci.policy.yaml', '/p/conf/ci.policy.yaml', '/p/ci.yaml', '/p/conf/.skillctl/ci.policy.yaml']) {
      assert.equal(writablePolicyFile(file, file, [whole])?.code, 'POLICY_FILE_WRITABLE', file);
    }
  });

  it('holds a .skillctl/ only at the root of the project whose skills may write it', () => {
    const outer = { root: '/p', source: '/p/skillctl.policy.yaml', fsWrite: ['/p/packages'] };
    const inner = { root: '/p/packages/a', source: '/p/packages/a/skillctl.policy.yaml', fsWrite: [] };
    assert.equal(writablePolicyFile('/p/packages/a/.skillctl/ci.yaml', '/p/packages/a/.skillctl/ci.yaml', [inner, outer])?.code, 'POLICY_FILE_WRITABLE');
  });

  it('judges the name given and the file it leads to, each', () => {
    // A link kept in .skillctl/ to a file skills may write, and a link skills may replace to a held file.
    assert.equal(writablePolicyFile('/p/.skillctl/ci.yaml', '/p/conf/ci.yaml', [whole])?.code, 'POLICY_FILE_WRITABLE');
    assert.equal(writablePolicyFile('/p/conf/ci.yaml', '/p/.skillctl/ci.yaml', [whole])?.code, 'POLICY_FILE_WRITABLE');
  });

  it('does not judge a policy by its own grant (its runs hold it), only by the others', () => {
    const self = { root: '/p', source: '/p/ci.policy.yaml', fsWrite: ['/p'] };
    assert.equal(writablePolicyFile('/p/ci.policy.yaml', '/p/ci.policy.yaml', [self]), undefined);
    assert.equal(writablePolicyFile('/p/ci.policy.yaml', '/p/ci.policy.yaml', [self, { ...self, source: '/p/other.policy.yaml' }])?.code, 'POLICY_FILE_WRITABLE');
  });

  it('accepts a policy outside every write grant, on segment boundaries', () => {
    const ws = { root: '/p', source: '/p/skillctl.policy.yaml', fsWrite: ['/p/ws'] };
    assert.equal(writablePolicyFile('/p/ws2/ci.yaml', '/p/ws2/ci.yaml', [ws]), undefined);
    assert.equal(writablePolicyFile('/elsewhere/ci.yaml', '/elsewhere/ci.yaml', [whole]), undefined);
    assert.equal(writablePolicyFile('/p/conf/ci.yaml', '/p/conf/ci.yaml', []), undefined);
  });
});
