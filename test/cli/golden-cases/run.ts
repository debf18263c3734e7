// Golden cases for `skillctl run` and `skillctl audit verify` (docs/commands/run.md, audit.md).
// Runs happen in temp copies of fixtures/pins/project with --no-audit, except where the audit log
// is the point. Process runtimes always name --sandbox, since `auto` prints the choice it made.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GoldenCase, GoldenContext, Redaction } from '../../helpers/golden-cli.js';
import { editManifest } from '../../helpers/project.js';

const PROJECT = { '.': 'fixtures/pins/project' } as const;
const TRIVIAL = { '.': 'fixtures/pins/project', 'node-trivial': 'fixtures/run/node-trivial' } as const;

/**
 * node-trivial pins node 20.19.0; pinned to the node running the suite (first on PATH), no
 * RUN_RUNTIME_VERSION_MISMATCH names this machine's node and version.
 */
async function pinThisNode({ dir }: GoldenContext): Promise<void> {
  await editManifest(join(dir, 'node-trivial'), (text) => text.replace(/runtime_version: \S+/, `runtime_version: ${process.versions.node}`));
}

/** receipt_hash covers the record's timestamps and duration, so it differs on every run. */
const RECEIPT: Redaction = { pattern: /"receipt_hash": "sha256:[0-9a-f]{64}"/g, replacement: '"receipt_hash": "<RECEIPT_HASH: covers timestamps>"' };
/** The log's head is the last record's receipt_hash: it covers timestamps too. */
const HEAD: Redaction = { pattern: /"head": "sha256:[0-9a-f]{64}"/g, replacement: '"head": "<HEAD: a receipt_hash, covers timestamps>"' };

const READ = '{"path": "manifests/hello/run.js"}';

export const RUN: readonly GoldenCase[] = [
  // built-in skills
  { args: ['run', 'fs.read_text', '--input', '-', '--no-audit'], temp: PROJECT, stdin: READ },
  { args: ['run', 'fs.read_text', '--input', '-', '--no-audit', '--json'], temp: PROJECT, stdin: READ },
  { args: ['run', 'fs.read_text@0.1.0', '--input', 'request.json', '--no-audit'], temp: PROJECT, setup: async ({ dir }) => writeFile(join(dir, 'request.json'), '{"path": "manifests/hello/data/words.txt", "max_bytes": 8}'), label: 'request-file' },
  { args: ['run', 'fs.read_text', '--input', '-', '--no-audit'], label: 'outside-policy', temp: PROJECT, stdin: '{"path": "/etc/passwd"}' },
  { args: ['run', 'fs.read_text', '--input', '-', '--no-audit', '--json'], label: 'outside-policy', temp: PROJECT, stdin: '{"path": "../outside.txt"}' },
  { args: ['run', 'fs.read_text', '--input', '-', '--no-audit'], label: 'invalid-input', temp: PROJECT, stdin: '{"pathx": 1}' },
  { args: ['run', 'fs.read_text', '--input', '-', '--no-audit'], label: 'not-json', temp: PROJECT, stdin: 'path=README.md' },
  { args: ['run', 'fs.read_text', '--input', '-', '--no-audit'], label: 'missing-file', temp: PROJECT, stdin: '{"path": "nope.txt"}' },
  { args: ['run', 'fs.read_tree', '--input', '-', '--no-audit'], temp: PROJECT, stdin: '{"root": "manifests"}' },
  { args: ['run', 'fs.write_patch', '--input', '-', '--no-audit'], label: 'denied', temp: PROJECT, stdin: '{"unified_diff": "--- a/manifests/hello/data/words.txt\\n+++ b/manifests/hello/data/words.txt\\n@@ -1,2 +1,2 @@\\n-hello\\n+hi\\n world\\n"}', show: ['manifests/hello/data/words.txt'] },
  {
    args: ['run', 'fs.write_patch', '--input', '-', '--no-audit', '--policy', 'write.policy.yaml'],
    label: 'granted',
    temp: PROJECT,
    setup: async ({ dir }) => writeFile(join(dir, 'write.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n  fs.write: [manifests/hello/data]\n'),
    stdin: '{"unified_diff": "--- a/manifests/hello/data/words.txt\\n+++ b/manifests/hello/data/words.txt\\n@@ -1,2 +1,2 @@\\n-hello\\n+hi\\n world\\n"}',
    show: ['manifests/hello/data/words.txt'],
  },
  { args: ['run', 'fs.read_text', '--policy', 'bad.policy.yaml', '--no-audit'], temp: PROJECT, setup: async ({ dir }) => writeFile(join(dir, 'bad.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [../up]\n  disk: [/]\n'), label: 'invalid-policy' },
  { args: ['run', 'nosuch.skill', '--no-audit'], temp: PROJECT },
  { args: ['run', 'fs.read_text@9.9.9', '--no-audit'], temp: PROJECT },
  { args: ['run', 'fs.read_text', '--retries', '9', '--no-audit'], temp: PROJECT },
  // a bundle directory with a node entrypoint, and its archive
  { args: ['run', './node-trivial', '--no-audit', '--sandbox', 'none'], temp: TRIVIAL, setup: pinThisNode, label: 'this-node' },
  { args: ['run', './node-trivial', '--no-audit', '--sandbox', 'bwrap', '--json'], temp: TRIVIAL, setup: pinThisNode, label: 'this-node' },
  {
    args: ['run', 'fixture.node-trivial-0.1.0.tgz', '--no-audit', '--sandbox', 'none', '--json'],
    label: 'packed',
    temp: TRIVIAL,
    setup: async (ctx) => {
      await pinThisNode(ctx);
      await ctx.cli(['pack', 'node-trivial']);
    },
  },
  // an invalid bundle: not run; --json gives the loader error validate would (here its runtime is unpinned)
  {
    args: ['run', './node-trivial', '--no-audit', '--sandbox', 'none', '--json'],
    label: 'unpinned-runtime',
    temp: TRIVIAL,
    setup: async ({ dir }) => editManifest(join(dir, 'node-trivial'), (text) => text.replace(/\n {4}runtime_version: \S+/, '')),
  },
  // with an audit record: the log's path, and a receipt hash that differs on every run
  { args: ['run', 'fs.read_text', '--input', '-', '--json'], label: 'audited', temp: PROJECT, stdin: READ, redact: [RECEIPT, HEAD], list: ['.skillctl'], listHashes: false },
];

export const AUDIT: readonly GoldenCase[] = [
  { args: ['audit', 'verify', 'fixtures/audit/intact.jsonl'] },
  { args: ['audit', 'verify', 'fixtures/audit/tampered.jsonl'] },
  { args: ['audit', 'verify', '--json', 'fixtures/audit/tampered.jsonl'] },
  { args: ['audit', 'verify'], temp: {} },
  {
    args: ['audit', 'verify', '--json'],
    label: 'after-runs',
    temp: PROJECT,
    redact: [HEAD],
    setup: async ({ cli }) => {
      await cli(['run', 'fs.read_text', '--input', '-'], { input: READ });
      await cli(['run', 'fs.read_text', '--input', '-'], { input: '{"path": "/etc/passwd"}', expect: 3 });
    },
  },
];
