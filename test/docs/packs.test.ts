// The worked shell example of docs/packs.md, run exactly as written (with `cat` as the agent), so
// the documentation cannot drift from what skillctl does.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { renderPack } from '../../src/core/behaviour-packs/index.js';
import { BIN, ROOT } from '../helpers/paths.js';

function example(): string {
  const doc = readFileSync(join(ROOT, 'docs', 'packs.md'), 'utf8');
  const from = doc.indexOf('## Worked example');
  const m = /```sh\n([\s\S]*?)```/.exec(doc.slice(from));
  assert.ok(from >= 0 && m?.[1] !== undefined, 'docs/packs.md has a worked shell example');
  return m[1];
}

describe('docs/packs.md worked example', () => {
  let dir: string;
  const run = (...args: string[]): { code: number | null; stdout: string; stderr: string } => {
    const r = spawnSync('bash', [join(dir, 'delegate.sh'), ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`, AGENT: 'cat', JOB_LOG: join(dir, 'jobs.log'), NO_COLOR: '1' },
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'skillctl-runner-'));
    writeFileSync(join(dir, 'delegate.sh'), example());
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'skillctl'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
    chmodSync(join(dir, 'bin', 'skillctl'), 0o755);
    writeFileSync(join(dir, 'goal.txt'), 'Check that fs.read_tree honours .gitignore.\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('injects the research pack for a research job and records its identity line', () => {
    const r = run('research-gitignore', 'goal.txt', '', '700');
    assert.equal(r.code, 0, r.stderr);
    const pack = renderPack('research', 700).value?.text ?? '';
    assert.ok(r.stdout.includes(`\n\nSKILL PACK (bounded):\n${pack}\n\nJOB (research-gitignore):\nCheck that`), r.stdout);
    assert.match(readFileSync(join(dir, 'jobs.log'), 'utf8'), /^job research-gitignore: skill profile=research version=0\.1\.0 max_chars=700$/m);
  });

  it('defaults to strict with a 1200-character budget', () => {
    const r = run('build', 'goal.txt');
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes(`SKILL PACK (bounded):\n${renderPack('strict', 1200).value?.text ?? ''}\n\n`));
  });

  it('leaves the pack out when the budget is 0', () => {
    const r = run('build', 'goal.txt', 'daily', '0');
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /SKILL PACK/);
  });

  it('does not start the agent when the profile is unknown', () => {
    const r = run('build', 'goal.txt', 'deep');
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /INVALID_INPUT/);
  });
});
