// When RLIMIT_NPROC set in a sandbox counts the sandbox's processes alone: never where it would
// count every process the user has on the host (test/security/process-count.test.ts runs it).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countsPerUserNamespace, nprocHolds } from '../../../src/core/run/user-namespace.js';

describe('RLIMIT_NPROC in the sandbox', () => {
  it('is counted per user namespace from Linux 5.14', () => {
    for (const r of ['5.14.0', '5.15.0-91-generic', '6.1.0-18-amd64', '6.18.44-fc-v669', '10.0']) assert.equal(countsPerUserNamespace(r), true, r);
    for (const r of ['5.13.19', '5.4.0-150-generic', '4.19.0', '3.10.0-1160.el7.x86_64', 'unknown', '']) assert.equal(countsPerUserNamespace(r), false, r);
  });

  it('is set only for a user who is not root, with a bubblewrap that is not setuid (so it makes a user namespace), on such a kernel', () => {
    assert.equal(nprocHolds({ uid: 1000, setuidBwrap: false, release: '6.1.0' }), true);
    // Root is exempt in the host's namespace, and bubblewrap run by root makes none.
    assert.equal(nprocHolds({ uid: 0, setuidBwrap: false, release: '6.1.0' }), false);
    // A setuid bubblewrap may make no user namespace: the count would be the user's whole.
    assert.equal(nprocHolds({ uid: 1000, setuidBwrap: true, release: '6.1.0' }), false);
    assert.equal(nprocHolds({ uid: 1000, setuidBwrap: false, release: '5.10.0' }), false);
  });
});
