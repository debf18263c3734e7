/**
 * dist/ is never missing: a clone that was never built says so in one line (bin/skillctl.js), and a
 * build writes beside dist/ and swaps it into place (scripts/build.mjs), so a skillctl started
 * while `npm test` rebuilds runs the previous build instead of dying with a stack trace.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

interface Exit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runBin(dir: string, args: readonly string[]): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(dir, 'bin', 'skillctl.js'), ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('bin/skillctl.js without a build', () => {
  it('says how to build, on one line, and exits 2, whatever the command', async () => {
    const dir = tempDir('skillctl-unbuilt-');
    cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
    // Each of the paths bin/skillctl.js can take: the full CLI and both fast paths.
    for (const args of [['--version'], ['skill', '--profile', 'daily'], ['validate', 'skill.yaml'], ['--json', 'verify-pins']]) {
      const r = await runBin(dir, args);
      assert.deepEqual(r, { code: 2, stdout: '', stderr: `skillctl is not built: run npm ci (or npm run build) in ${dir}\n` }, args.join(' '));
    }
  });
});

describe('scripts/build.mjs', () => {
  it('keeps dist/ in place while it builds: a skillctl started meanwhile runs the previous build', async () => {
    // A copy of what the build reads and writes, so that this suite's own dist/ stays as it is.
    const dir = tempDir('skillctl-rebuild-');
    for (const part of ['bin', 'scripts', 'src', 'schemas', 'dist', 'package.json']) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    mkdirSync(join(dir, 'manifests'));
    const version = spawnSync(process.execPath, [join(ROOT, 'bin', 'skillctl.js'), '--version'], { encoding: 'utf8' }).stdout;

    // The bundle step alone: it rewrites every bundle the CLI loads.
    const build = spawn(process.execPath, [join(dir, 'scripts', 'build.mjs'), 'bundle'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let buildErr = '';
    build.stderr.on('data', (c: Buffer) => (buildErr += c.toString()));
    const built = new Promise<number | null>((resolve) => build.on('close', resolve));
    let building = true;
    void built.then(() => (building = false));

    // One run after another until the build ends, each checked.
    let duringBuild = 0;
    while (building) {
      const staged = readdirSync(dir).some((f) => f.startsWith('dist.build-'));
      assert.ok(existsSync(join(dir, 'dist', 'boot.cjs')), 'dist/ is in place throughout the build');
      assert.deepEqual(await runBin(dir, ['--version']), { code: 0, stdout: version, stderr: '' });
      if (staged) duringBuild++;
    }
    assert.equal(await built, 0, buildErr);
    assert.ok(duringBuild > 0, 'some runs started while the new build was being written');
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.startsWith('dist')),
      ['dist'],
      'nothing is left beside dist/',
    );
    assert.deepEqual(await runBin(dir, ['--version']), { code: 0, stdout: version, stderr: '' });
  });
});
