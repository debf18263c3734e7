// Which host sockets a sandbox covers: the service directories a grant shows without naming
// them, and each socket inside a grant (a read-only mount does not stop connect()).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { realpathSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { serviceCovers, serviceDirs, SERVICE_DIRS } from '../../../src/core/run/host-sockets.js';
import { tempDir } from '../../helpers/tmp.js';

const socketAt = (path: string): void => void execFileSync('python3', ['-c', 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])', path]);

describe('serviceDirs', () => {
  it('adds XDG_RUNTIME_DIR when it is an absolute path other than /', () => {
    assert.deepEqual(serviceDirs(undefined), SERVICE_DIRS);
    assert.deepEqual(serviceDirs('relative/run'), SERVICE_DIRS);
    assert.deepEqual(serviceDirs('/'), SERVICE_DIRS);
    assert.deepEqual(serviceDirs('/home/u/.run'), [...SERVICE_DIRS, '/home/u/.run']);
  });
});

describe('serviceCovers', () => {
  it('covers a service directory a grant holds without naming it, by its real path, and not one a grant names', async () => {
    const root = realpathSync(tempDir('skillctl-host-sockets-'));
    mkdirSync(join(root, 'run', 'user'), { recursive: true });
    symlinkSync('run', join(root, 'var-run'));
    const dirs = [join(root, 'run'), join(root, 'var-run'), join(root, 'run', 'user'), join(root, 'absent')];
    assert.deepEqual((await serviceCovers({ sockets: [], dirs }, [root])).dirs, [join(root, 'run')]);
    assert.deepEqual((await serviceCovers({ sockets: [], dirs }, [join(root, 'run')])).dirs, [join(root, 'run', 'user')]);
    assert.deepEqual((await serviceCovers({ sockets: [], dirs }, [join(root, 'run', 'user')])).dirs, []);
    assert.deepEqual((await serviceCovers({ sockets: [], dirs }, [join(root, 'elsewhere')])).dirs, []);
  });

  it('covers each socket still there inside a grant, and a grant that is one, but none under a covered directory or shown by nothing', async () => {
    const root = realpathSync(tempDir('skillctl-host-sockets-'));
    mkdirSync(join(root, 'run', 'user'), { recursive: true });
    mkdirSync(join(root, 'work'));
    for (const s of ['work/a.sock', 'run/bus', 'run/user/tmux']) socketAt(join(root, s));
    writeFileSync(join(root, 'work', 'plain'), '');
    const sockets = [join(root, 'work', 'a.sock'), join(root, 'work', 'plain'), join(root, 'work', 'gone.sock'), join(root, 'run', 'bus'), join(root, 'run', 'user', 'tmux')];
    const services = { sockets, dirs: [join(root, 'run')] };
    assert.deepEqual(await serviceCovers(services, [root]), { dirs: [join(root, 'run')], files: [join(root, 'work', 'a.sock')] });
    // A grant inside the covered directory is shown on top of it, its sockets covered.
    assert.deepEqual(await serviceCovers(services, [root, join(root, 'run', 'user')]), { dirs: [join(root, 'run')], files: [join(root, 'run', 'user', 'tmux'), join(root, 'work', 'a.sock')] });
    assert.deepEqual(await serviceCovers(services, [join(root, 'run', 'bus')]), { dirs: [], files: [join(root, 'run', 'bus')] });
    assert.deepEqual((await serviceCovers(services, [join(root, 'elsewhere')])).files, []);
    // A grant of `/` holds nothing under what the sandbox makes itself (its private /tmp).
    assert.deepEqual((await serviceCovers({ sockets: [join(root, 'work', 'a.sock')], dirs: [] }, ['/'], [root])).files, []);
    assert.deepEqual((await serviceCovers({ sockets: [join(root, 'work', 'a.sock')], dirs: [] }, ['/', join(root, 'work')], [root])).files, [join(root, 'work', 'a.sock')]);
  });
});
