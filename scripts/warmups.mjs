// Commands the build runs once to produce V8 code caches (src/boot.cjs). List the common path of
// each command; the last run that loads a bundle writes its cache, so the main bundle's cache
// comes from the last entry.
export const WARMUPS = [
  // A finding to place loads the full YAML parser (cmd/yaml-document.cjs) for its positions. First,
  // so that the valid manifests after it write validate's own cache.
  ['validate', 'fixtures/manifests/invalid/missing-required-fields'],
  ['validate', '--json', 'fixtures/manifests/valid/python-entrypoint'],
  ['validate', 'fixtures/manifests/valid/python-entrypoint/skill.yaml'],
  ['registry', 'list', '--json'],
  ['registry', 'load', 'git'],
  ['run', '--no-audit', './fixtures/run/node-trivial'],
  // A built-in last: its code paths are the ones `run` of the default bundle takes.
  ['run', '--no-audit', 'fs.read_text', '--input', 'bench/inputs/fs-read-text.json'],
  ['prompt', 'fixtures/agent-skills/valid/minimal-skill'],
  ['validate', '--contract', 'click_thesis', 'fixtures/contracts/valid/click_thesis.one-sentence-charged-and-bound.json'],
  // skill's full command (operator packs, YAML); a plain built-in request takes the fast path, uncached.
  ['skill', '--packs', 'fixtures/packs/operator/valid', '--profile', 'acme-oncall'],
  // Read-only: verifies the repository's own lock.
  ['verify-pins', '--json'],
  ['--version'],
];
