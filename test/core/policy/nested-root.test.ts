import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { plantableRoot } from '../../../src/core/policy/nested-root.js';

describe("plantableRoot: a nested project root is obeyed only where no enclosing project's skills may write", () => {
  const outer = { root: '/p', source: '/p/skillctl.policy.yaml', fsWrite: ['/p/ws'] };

  it('refuses a policy inside an enclosing write grant, naming the file, the grant and the enclosing policy', () => {
    const d = plantableRoot({ policy: '/p/ws/sub/skillctl.policy.yaml' }, [outer]);
    assert.deepEqual(d && [d.code, d.message, d.hint], [
      'POLICY_ROOT_WRITABLE',
      '/p/ws/sub/skillctl.policy.yaml lies inside /p/ws, which the policy of the enclosing project /p (/p/skillctl.policy.yaml) lets skills write: a skill run there could have made this policy, and a run started here would obey it',
      'pass --policy /p/ws/sub/skillctl.policy.yaml if you wrote it, or grant fs.write in /p/skillctl.policy.yaml less than this folder',
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
