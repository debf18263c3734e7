/**
 * The fast path of a plain `skillctl pull oci://REF [--out DIR]` (src/entry/pull-argv.ts): a pull
 * by digest already cached and in place, the pull setup scripts and agents repeat, loads the pull
 * chunk and not the CLI framework; whatever it takes prints the same bytes and exits as the full
 * CLI does, and whatever else it declines goes to the full CLI.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { plainPull } from '../../src/entry/pull-argv.js';
import { chunkTracePreload } from '../helpers/chunk-trace.js';
import { json, skillctl } from '../helpers/cli.js';
import { startRegistry, type RunningRegistry } from '../helpers/oci-registry.js';
import { BIN } from '../helpers/paths.js';
import { removeDir, tempDir } from '../helpers/project.js';

const READ_TEXT = join(process.cwd(), 'manifests', 'default', 'fs.read_text');

const PRELOAD = chunkTracePreload({ entries: true });

describe('skillctl pull oci://: the fast path', () => {
  let registry: RunningRegistry;
  let work: string;
  let env: Record<string, string>;
  let byDigest: string;

  before(async () => {
    registry = await startRegistry();
    work = await tempDir('skillctl-pull-fast-');
    await mkdir(join(work, 'docker'));
    await mkdir(join(work, 'proj', '.git'), { recursive: true });
    env = { XDG_CACHE_HOME: join(work, 'cache'), DOCKER_CONFIG: join(work, 'docker') };
    const pushed = skillctl(['push', READ_TEXT, `oci://${registry.host}/skills/fs.read_text:1`, '--json'], { env, timeoutMs: 60_000 });
    assert.equal(pushed.code, 0, pushed.stdout + pushed.stderr);
    byDigest = `oci://${registry.host}/skills/fs.read_text@${json<{ digest: string }>(pushed).digest}`;
  });
  after(async () => {
    await registry.stop();
    await removeDir(work);
  });

  const cwd = (): string => join(work, 'proj');
  /** The fast path's answer, then the full CLI's (`--no-color` before the command name is a global option only commander parses). */
  const both = (args: string[]): [ReturnType<typeof skillctl>, ReturnType<typeof skillctl>] => [
    skillctl(['pull', ...args], { cwd: cwd(), env, timeoutMs: 60_000 }),
    skillctl(['--no-color', 'pull', ...args], { cwd: cwd(), env, timeoutMs: 60_000 }),
  ];

  it('a repeated pull by digest, cached and in place, loads the pull chunk and not the CLI framework', () => {
    assert.equal(skillctl(['pull', byDigest, '--out', 'vendor'], { cwd: cwd(), env, timeoutMs: 60_000 }).code, 0);
    const dir = join(work, 'trace');
    mkdirSync(dir);
    const preload = join(dir, 'trace.cjs');
    const trace = join(dir, 'trace.json');
    writeFileSync(preload, PRELOAD);
    const r = spawnSync(process.execPath, ['-r', preload, BIN, 'pull', '--quiet', byDigest, '--out', 'vendor'], { cwd: cwd(), env: { ...process.env, ...env, SKILLCTL_TRACE_FILE: trace }, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const touched = JSON.parse(readFileSync(trace, 'utf8')) as string[];
    assert.ok(touched.includes('cmd/pull-oci.cjs'), touched.join(', '));
    assert.ok(!touched.includes('skillctl.cjs'), `the full CLI was loaded: ${touched.join(', ')}`);
  });

  // Each pair in the same state: a pull first, so that both find the folder in place.
  const cases: string[][] = [
    ['--out', 'vendor'],
    ['--out=vendor', '--json'],
    ['-q', '--out', 'vendor'],
    ['--out', 'elsewhere', '--quiet'],
  ];
  for (const args of cases) {
    it(`pull <digest> ${args.join(' ')}: the same bytes and exit status as the full CLI`, () => {
      assert.equal(skillctl(['pull', byDigest, ...args], { cwd: cwd(), env, timeoutMs: 60_000 }).code, 0);
      const [fast, full] = both([byDigest, ...args]);
      assert.equal(fast.code, 0, fast.stdout + fast.stderr);
      assert.deepEqual([fast.code, fast.stdout, fast.stderr], [full.code, full.stdout, full.stderr]);
    });
  }

  const errors: [string, () => string][] = [
    ['a malformed reference', () => 'oci://'],
    ['a tag the registry does not have', () => `oci://${registry.host}/skills/none:1`],
    ['a registry that is not there', () => 'oci://127.0.0.1:1/skills/x:1'],
  ];
  for (const [what, ref] of errors) {
    for (const json of [[], ['--json']]) {
      it(`${what}${json.length > 0 ? ', --json' : ''}: the same report and exit status as the full CLI`, () => {
        const [fast, full] = both([ref(), ...json]);
        assert.notEqual(fast.code, 0);
        assert.deepEqual([fast.code, fast.stdout, fast.stderr], [full.code, full.stdout, full.stderr]);
      });
    }
  }

  it('takes only `pull`, one oci:// reference, --out DIR and --json, --quiet/-q, --no-color', () => {
    assert.deepEqual(plainPull(['pull', 'oci://h/r:1', '--out', 'v', '--json', '-q', '--no-color']), { reference: 'oci://h/r:1', out: 'v', json: true, quiet: true, noColor: true });
    assert.deepEqual(plainPull(['pull', '--out=v', 'oci://h/r@sha256:00']), { reference: 'oci://h/r@sha256:00', out: 'v', json: false, quiet: false, noColor: false });
    for (const argv of [
      ['pull'],
      ['pull', '--json'],
      ['--json', 'pull', 'oci://h/r:1'],
      ['pull', 'oci://h/r:1', 'oci://h/s:1'],
      ['pull', 'skill://a/SKILL.md', '--mcp', 'x'],
      ['pull', 'oci://h/r:1', '--out'],
      ['pull', 'oci://h/r:1', '--out', '--json'],
      ['pull', 'oci://h/r:1', '--out='],
      ['pull', 'oci://h/r:1', '--out', 'a', '--out', 'b'],
      ['pull', 'oci://h/r:1', '--force'],
      ['pull', 'oci://h/r:1', '--timeout', '5'],
      ['pull', 'oci://h/r:1', '--min-signers', '1', '--keys', 'k'],
      ['pull', 'oci://h/r:1', '--plain-http'],
      ['pull', 'oci://h/r:1', '--help'],
      ['pull', '--', 'oci://h/r:1'],
      ['pull', 'oci://h/r:1', '--debug'],
      ['push', 'oci://h/r:1'],
    ]) {
      assert.equal(plainPull(argv), undefined, argv.join(' '));
    }
  });
});
