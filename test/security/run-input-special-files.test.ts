// Threat: files that are not what their names say (a FIFO, a device, a socket or a sparse giant where a command expects a file).
// `skillctl run --input FILE` and `--policy FILE` read the file the user named with a plain
// readFile (until the stop of 2026-12-02): a FIFO no one writes held the run forever, `--input
// /dev/zero` (or `/dev/stdin` of a terminal) read until the heap filled (2.5 GB in 30 s, never
// ending), and a sparse file under 2 GB was read whole. Now each is refused by kind before it is
// opened (INPUT_NOT_REGULAR_FILE), or by size after reading at most 4 MiB + 1 byte
// (INPUT_UNREADABLE), exit 2, and the run starts nothing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { attempt, scratch, treeState } from '../helpers/attack.js';
import { fifo, socketAt } from '../helpers/hostile.js';
import { BIN, fixture } from '../helpers/paths.js';

describe('run --input and --policy on files that are not regular files', () => {
  const s = scratch('skillctl-run-input-special-');
  cpSync(fixture('pins', 'project'), s.work, { recursive: true });
  mkdirSync(join(s.work, 'in'));
  writeFileSync(join(s.work, 'in', 'ok.json'), '{}\n');

  interface Row {
    readonly what: string;
    readonly flag: '--input' | '--policy';
    /** The path named, relative to work/. */
    readonly path: string;
    readonly code: string;
    readonly message: RegExp;
    readonly setup?: () => Promise<void> | void;
  }
  const rows: Row[] = [
    { what: 'a FIFO no one writes', flag: '--input', path: 'in/in.fifo', code: 'INPUT_NOT_REGULAR_FILE', message: /FIFO/, setup: () => fifo(join(s.work, 'in', 'in.fifo')) },
    { what: '/dev/zero', flag: '--input', path: '/dev/zero', code: 'INPUT_NOT_REGULAR_FILE', message: /character device/ },
    { what: 'a directory', flag: '--input', path: 'in', code: 'INPUT_NOT_REGULAR_FILE', message: /directory/ },
    { what: 'a sparse file of 2 GB', flag: '--input', path: 'in/big.json', code: 'INPUT_UNREADABLE', message: /exceeds 4194304 bytes/, setup: () => writeFile(join(s.work, 'in', 'big.json'), '').then(() => truncate(join(s.work, 'in', 'big.json'), 2 * 1024 ** 3)) },
    { what: 'a sparse file of 1 GB', flag: '--input', path: 'in/mid.json', code: 'INPUT_UNREADABLE', message: /exceeds 4194304 bytes/, setup: () => writeFile(join(s.work, 'in', 'mid.json'), '').then(() => truncate(join(s.work, 'in', 'mid.json'), 1024 ** 3)) },
    { what: 'a FIFO no one writes', flag: '--policy', path: 'in/policy.fifo', code: 'INPUT_NOT_REGULAR_FILE', message: /FIFO/, setup: () => fifo(join(s.work, 'in', 'policy.fifo')) },
    { what: '/dev/zero', flag: '--policy', path: '/dev/zero', code: 'INPUT_NOT_REGULAR_FILE', message: /character device/ },
  ];

  for (const row of rows) {
    it(`${row.flag} ${row.what}: ${row.code}, exit 2, promptly`, async () => {
      await row.setup?.();
      const before = await treeState(s.outside);
      const t0 = Date.now();
      const r = await attempt(['run', 'manifests/hello', row.flag, row.path, '--no-audit'], { cwd: s.work });
      assert.equal(r.exit, 2, r.stdout + r.stderr);
      assert.deepEqual(r.errors, [row.code], r.stdout);
      assert.match(r.stdout, row.message);
      assert.ok(Date.now() - t0 < 15_000, `took ${Date.now() - t0} ms`);
      assert.deepEqual(await treeState(s.outside), before);
    });
  }

  it('--input a listening Unix socket: INPUT_NOT_REGULAR_FILE, exit 2', async () => {
    const server = await socketAt(join(s.work, 'in', 'sock.json'));
    try {
      const r = await attempt(['run', 'manifests/hello', '--input', 'in/sock.json', '--no-audit'], { cwd: s.work });
      assert.equal(r.exit, 2, r.stdout + r.stderr);
      assert.deepEqual(r.errors, ['INPUT_NOT_REGULAR_FILE'], r.stdout);
      assert.match(r.stdout, /socket/);
    } finally {
      server.close();
    }
  });

  it('--input /dev/stdin of a terminal: INPUT_NOT_REGULAR_FILE, exit 2, without waiting for a line', (t) => {
    // script(1) gives skillctl a terminal as stdin that no one types into.
    if (spawnSync('script', ['--version']).status !== 0) return t.skip('no script(1) to make a terminal');
    const cmd = `${process.execPath} ${BIN} run manifests/hello --input /dev/stdin --no-audit --json`;
    const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { cwd: s.work, encoding: 'utf8', timeout: 20_000, stdio: ['pipe', 'pipe', 'pipe'] });
    assert.notEqual(r.signal, 'SIGTERM', `skillctl waited on the terminal:\n${r.stdout}`);
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.match(r.stdout, /"code": "INPUT_NOT_REGULAR_FILE"/);
    assert.match(r.stdout, /character device/);
  });

  it('a regular --input file still runs', async () => {
    const r = await attempt(['run', 'manifests/hello', '--input', 'in/ok.json', '--no-audit'], { cwd: s.work });
    assert.equal(r.exit, 0, r.stdout + r.stderr);
    assert.equal(r.status, 'ok');
  });
});
