import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exposedServedFolder } from '../../../src/core/policy/served-place.js';

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
