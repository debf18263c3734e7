// The V8 code caches dist/boot.cjs compiles the bundles with (src/entry/boot.cjs): the build runs
// each command below once with SKILLCTL_V8_CACHE=produce, and each bundle's cache is written after
// the run, so it holds the functions a real invocation compiles. List the common path of each
// command; the last run that loads a bundle writes its cache, so the main bundle's cache comes
// from the last entry. A chunk no warm-up reaches just compiles without a cache.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const WARMUPS = [
  // A finding to place loads the full YAML parser (cmd/yaml-document.cjs) for its positions. First,
  // so that the valid manifests after it write validate's own cache.
  ['validate', 'fixtures/manifests/invalid/missing-required-fields'],
  ['validate', '--json', 'fixtures/manifests/valid/python-entrypoint'],
  ['validate', 'fixtures/manifests/valid/python-entrypoint/skill.yaml'],
  ['registry', 'list', '--json'],
  ['registry', 'load', 'git'],
  ['run', '--no-audit', './fixtures/run/node-trivial'],
  // A built-in last: its code paths are the ones `run` of the default bundle takes (and its worker
  // thread writes cmd/builtin-worker.cjs's cache).
  ['run', '--no-audit', 'fs.read_text', '--input', 'bench/inputs/fs-read-text.json'],
  ['prompt', 'fixtures/agent-skills/valid/minimal-skill'],
  ['validate', '--contract', 'click_thesis', 'fixtures/contracts/valid/click_thesis.one-sentence-charged-and-bound.json'],
  // skill's full command (operator packs, YAML); a plain built-in request takes the fast path, uncached.
  ['skill', '--packs', 'fixtures/packs/operator/valid', '--profile', 'acme-oncall'],
  // Read-only: verifies the repository's own lock.
  ['verify-pins', '--json'],
  ['--version'],
];

/**
 * Runs the warm-ups against the bundles in `out` (the build's staging directory, not yet dist/),
 * from the repository root, as bin/skillctl.js would run them.
 */
export function warmUp(root, out) {
  for (const args of WARMUPS) {
    spawnSync(process.execPath, ['-e', 'require(process.argv[1]).main(process.argv.slice(2))', join(out, 'boot.cjs'), ...args], {
      cwd: root,
      stdio: 'ignore',
      env: { ...process.env, SKILLCTL_V8_CACHE: 'produce', NO_COLOR: '1' },
      input: '',
    });
  }
}
