/**
 * What `skillctl validate` loads to check a clean manifest: its own chunk, not the full YAML
 * parser (dist/cmd/yaml-document.cjs, loaded only to place a finding), and no stdout stream
 * (writing to fd 1 and telling a terminal apart by fstat is cheaper than building one). These are
 * the start-up costs docs/performance.md counts; a preload records what the process touched.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { plainValidate } from '../../src/entry/validate-argv.js';
import { skillctl } from '../helpers/cli.js';
import { chunkTracePreload } from '../helpers/chunk-trace.js';
import { BIN, ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const PRELOAD = chunkTracePreload({ streams: true });

describe('skillctl validate: what a run loads', () => {
  const dir = tempDir('skillctl-validate-startup-');
  const preload = join(dir, 'trace.cjs');
  const trace = join(dir, 'trace.json');
  writeFileSync(preload, PRELOAD);

  function traced(args: string[]): { code: number; stdout: string; touched: string[] } {
    const out = join(dir, 'stdout.txt');
    // Through a shell, so stdout is a file as in `skillctl validate ... > out`.
    const script = `node="$0" preload="$1" bin="$2"; shift 2; exec "$node" -r "$preload" "$bin" validate "$@" > "${out}"`;
    const r = spawnSync('sh', ['-c', script, process.execPath, preload, BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, SKILLCTL_TRACE_FILE: trace, NO_COLOR: '', FORCE_COLOR: '' },
      encoding: 'utf8',
    });
    return { code: r.status ?? -1, stdout: readFileSync(out, 'utf8'), touched: JSON.parse(readFileSync(trace, 'utf8')) as string[] };
  }

  it('checks a clean manifest with its own chunk and the shared quick YAML reader only, and writes without building a stdout stream', () => {
    const r = traced(['manifests/examples/text.stats/skill.yaml']);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.stdout, '✔ 1 manifest checked: all valid; 0 errors, 0 warnings\n', 'no colour in a file');
    assert.deepEqual(r.touched, ['validate.cjs', 'yaml-fast.cjs']);
  });

  it('loads the full YAML parser to place the findings of a manifest that has some', () => {
    const r = traced(['fixtures/manifests/invalid/missing-required-fields']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^ {2}2:1 {5}error {3}SCHEMA_REQUIRED/m);
    assert.deepEqual(r.touched, ['validate.cjs', 'yaml-document.cjs', 'yaml-fast.cjs']);
  });
});

describe('skillctl validate: the fast path prints what the full CLI prints', () => {
  // `--no-color` before the command name is a global option only the full CLI parses, so the
  // second run of each pair goes through commander; both must print the same bytes and exit alike.
  const cases: string[][] = [
    ['manifests/examples/text.stats/skill.yaml'],
    ['manifests'],
    ['--json', 'fixtures/manifests/valid/node-entrypoint', 'fixtures/manifests/invalid/runtime-unpinned-python'],
    ['fixtures/manifests/invalid/missing-required-fields', '--quiet'],
    ['-q', 'fixtures/manifests/valid/python-entrypoint'],
    ['fixtures/manifests/invalid/duplicate-ids', 'fixtures/manifests/invalid/nesting-10000-deep-flow'],
    ['fixtures/manifests/invalid/invalid-utf8', '--no-color'],
    ['does-not-exist', '--json'],
    ['does-not-exist'],
    ['fixtures/agent-skills/valid/minimal-skill'],
  ];
  for (const args of cases) {
    it(`validate ${args.join(' ')}`, () => {
      const fast = skillctl(['validate', ...args], { cwd: ROOT });
      const full = skillctl(['--no-color', 'validate', ...args], { cwd: ROOT });
      assert.deepEqual([fast.code, fast.stdout, fast.stderr], [full.code, full.stdout, full.stderr]);
    });
  }

  it('takes only `validate` followed by paths and --json, --quiet/-q, --no-color', () => {
    assert.deepEqual(plainValidate(['validate', 'a', '--json', '-q', 'b', '--no-color']), { paths: ['a', 'b'], json: true, quiet: true, noColor: true });
    assert.deepEqual(plainValidate(['validate']), { paths: [], json: false, quiet: false, noColor: false });
    for (const argv of [
      ['--json', 'validate', 'a'],
      ['validate', '--fix', 'a'],
      ['validate', '-'],
      ['validate', '--', 'a'],
      ['validate', ''],
      ['validate', '--help'],
      ['validate', '--contract', 'x', 'a'],
      ['validate', '--debug', 'a'],
      ['skill'],
    ]) {
      assert.equal(plainValidate(argv), undefined, argv.join(' '));
    }
  });
});
