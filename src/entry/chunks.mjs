// Every bundle of the CLI, declared in one place. The build (src/entry/bundle.mjs) bundles each
// module listed here into a file of its own: the entries into dist/<name>.cjs, the chunks into
// dist/cmd/<name>.cjs. Every other bundle that imports a chunk gets a small stand-in
// (src/entry/chunk.cjs) that loads it through dist/boot.cjs, with its V8 code cache, when it is
// first used. A module not listed here is bundled into whatever imports it.
//
// Names are part of the start-up wing: dist/boot.cjs loads skillctl.cjs, skill-fast.cjs, run-argv.cjs, wasm-early.cjs, builtin-early.cjs,
// validate-argv.cjs, pull-argv.cjs, early-pool.cjs, cmd/validate.cjs and cmd/pull-oci.cjs by name, worker threads name the chunk they run
// (src/entry/workers.ts), and the warm-up runs (src/entry/warmups.mjs) write one code cache per
// chunk they load.

/** Loaded by dist/boot.cjs itself: the full CLI, and the fast paths' argument checks. */
export const ENTRIES = {
  'src/cli/main.ts': 'skillctl',
  // `skillctl skill` for a built-in pack, tried before the CLI loads (src/entry/skill-fast.ts).
  'src/entry/skill-fast.ts': 'skill-fast',
  // Whether `validate ...` and `pull oci://...` take their fast paths (src/entry/plain-command.ts).
  'src/entry/validate-argv.ts': 'validate-argv',
  'src/entry/pull-argv.ts': 'pull-argv',
  // verify-pins' worker threads, started before the CLI loads when the lock is large (src/entry/early-pool.ts).
  'src/entry/early-pool.ts': 'early-pool',
  // `skillctl run <dir>` of a wasm skill or `run <built-in id>`: whether the command line names a
  // directory or a built-in (run-argv), then the skill's thread, started before the CLI loads
  // (wasm-early for a wasm module's, builtin-early for a built-in's).
  'src/entry/run-argv.ts': 'run-argv',
  'src/entry/wasm-early.ts': 'wasm-early',
  'src/entry/builtin-early.ts': 'builtin-early',
};

/**
 * Imported with `await import()`: a command's action body (its folder's run.ts, required only
 * when that command runs, so `--version` and `--help` never parse it), and the heavy half of
 * `run` (YAML parser, validators, ajv, contracts), which a run of an unchanged default bundle
 * never loads (docs/performance.md).
 */
export const DYNAMIC_CHUNKS = {
  'src/cli/commands/audit/run.ts': 'audit',
  'src/cli/commands/audit/diff.ts': 'audit-diff',
  'src/cli/commands/contract/run.ts': 'contract',
  'src/cli/commands/convert/run.ts': 'convert',
  'src/cli/commands/init/run.ts': 'init',
  'src/cli/commands/keygen/run.ts': 'keygen',
  'src/cli/commands/mcp/run.ts': 'mcp',
  'src/cli/commands/pack/run.ts': 'pack',
  'src/cli/commands/pin/run.ts': 'pin',
  'src/cli/commands/pin/oci.ts': 'pin-oci',
  'src/cli/commands/prompt/run.ts': 'prompt',
  'src/cli/commands/pull/oci.ts': 'pull-oci',
  'src/cli/commands/push/run.ts': 'push',
  'src/cli/commands/pull/mcp.ts': 'pull-mcp',
  'src/cli/commands/registry/run.ts': 'registry',
  'src/cli/commands/registry/publish.ts': 'registry-publish',
  'src/cli/commands/registry/oci-sources.ts': 'registry-oci',
  'src/cli/commands/run/run.ts': 'run',
  'src/cli/commands/run/oci.ts': 'run-oci',
  'src/cli/commands/skill/run.ts': 'skill',
  'src/cli/commands/validate/run.ts': 'validate',
  'src/cli/commands/verify-pins/run.ts': 'verify-pins',
  'src/cli/commands/verify-pins/remote.ts': 'verify-pins-remote',
  'src/core/run/full.ts': 'run-full',
  // The built-in skills: a run starts them in a worker thread (cmd/builtin-worker.cjs, below) and
  // loads them in its own thread only where there are no worker bundles.
  'src/skills/index.ts': 'builtin-skills',
};

/** Programs of their own, started by name rather than imported: a built-in skill's worker thread (src/cli/run-env.ts starts it). */
export const ENTRY_CHUNKS = {
  'src/skills/worker.ts': 'builtin-worker',
  // `skillctl mcp --skills`: the thread that makes a share of each listing's file checks (src/cli/served-check-thread.ts).
  'src/cli/served-check-worker.ts': 'served-check-worker',
};

/**
 * Imported statically but called synchronously and rarely: loaded on the first call of one of the
 * named exports. The full YAML parser, which a clean manifest never needs (src/core/manifest/parse.ts),
 * and RE2 (re2js) for schema patterns, which only a schema with a pattern that needs checking loads.
 * Each YAML package is in one bundle of its own, shared by every command that reads or writes YAML,
 * not copied into each: the full one (`yaml`) in yaml-document, js-yaml (the quick reader of clean
 * manifests, src/core/manifest/yaml-fast.ts) in yaml-fast.
 */
export const SYNC_CHUNKS = {
  'src/core/manifest/yaml-document.ts': { name: 'yaml-document', exports: ['parseText', 'toYamlText'] },
  'src/core/manifest/yaml-fast.ts': { name: 'yaml-fast', exports: ['readPlainYaml'] },
  'src/core/json-schema/linear-regexp.ts': { name: 'linear-regexp', exports: ['compileLinear', 'linearPatternProblem'] },
  // What only some runs reach of run-full (payload contracts, an archive, signatures): a wasm run by path loads none of it.
  'src/core/run/full-rare.ts': {
    name: 'run-full-rare',
    exports: ['checkSignatures', 'compilePayloadSchema', 'loadContractSet', 'loadPublicKeys', 'loadSignatures', 'openArchive', 'provenactManifestShape'],
  },
};

/**
 * Node built-ins that a bundled package requires at load but rarely uses: each becomes a module
 * that requires the built-in on first use. commander requires child_process (and with it net,
 * dgram, tty) at load, for executable subcommands skillctl never uses.
 */
export const LAZY_BUILTINS = [{ package: 'commander', builtin: 'node:child_process' }];
