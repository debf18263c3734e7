/**
 * The fast path of `skillctl run` for the default bundle: a bundle whose bytes are the ones the
 * build validated runs from the build's snapshot without loading the heavy half of the engine
 * (dist/cmd/run-full.cjs: YAML parser, validators, ajv); any other bundle is validated in full.
 * A preload script records which chunk files the process reads.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { appendFile, cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { checkCliJson } from '../../helpers/cli-json.js';
import { BIN, ROOT } from '../../helpers/paths.js';
import { chunkTracePreload } from '../../helpers/chunk-trace.js';
import { tempDir } from '../../helpers/tmp.js';

interface Traced {
  readonly code: number;
  readonly doc: { status: string; diagnostics: { code: string; message: string }[] };
  /** Chunk files under dist/cmd the process read. */
  readonly chunks: string[];
}

const PRELOAD = chunkTracePreload();

describe('skillctl run: the default bundle from the build snapshot, or validated in full', () => {
  const dir = tempDir('skillctl-e2e-default-');
  const preload = join(dir, 'trace.cjs');
  const input = join(dir, 'request.json');
  const copy = join(dir, 'pkg');

  function traced(bin: string, args: readonly string[], request = input, cwd = dir): Traced {
    const trace = join(dir, 'trace.json');
    const argv = ['run', ...args, '--input', request, '--json', '--no-audit'];
    const r = spawnSync(process.execPath, ['-r', preload, bin, ...argv], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', SKILLCTL_TRACE_FILE: trace },
      encoding: 'utf8',
    });
    checkCliJson(argv, r.stdout);
    return { code: r.status ?? -1, doc: JSON.parse(r.stdout) as Traced['doc'], chunks: JSON.parse(readFileSync(trace, 'utf8')) as string[] };
  }

  before(async () => {
    await writeFile(preload, PRELOAD);
    await writeFile(join(dir, 'hello.txt'), 'hello\n');
    await writeFile(input, JSON.stringify({ path: 'hello.txt' }));
    // A copy of the installed package whose default bundle the tests may change.
    await mkdir(join(copy, 'dist'), { recursive: true });
    // Every bundle dist/boot.cjs may load by name (src/entry/chunks.mjs), and the snapshot.
    const top = readdirSync(join(ROOT, 'dist')).filter((f) => f.endsWith('.cjs') || f === 'skillctl.cjs.v8cache' || f === 'default-bundles.json');
    for (const f of top) await cp(join(ROOT, 'dist', f), join(copy, 'dist', f));
    await cp(join(ROOT, 'dist', 'cmd'), join(copy, 'dist', 'cmd'), { recursive: true });
    await cp(join(ROOT, 'bin'), join(copy, 'bin'), { recursive: true });
    await cp(join(ROOT, 'package.json'), join(copy, 'package.json'));
    await cp(join(ROOT, 'manifests', 'default'), join(copy, 'manifests', 'default'), { recursive: true });
    await symlink(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  });

  it('runs an unchanged default bundle without loading the heavy half of the engine', () => {
    const r = traced(BIN, ['fs.read_text']);
    assert.equal(r.code, 0, JSON.stringify(r.doc));
    assert.deepEqual(r.chunks, ['run.cjs']);
    const copyOk = traced(join(copy, 'bin', 'skillctl.js'), ['fs.read_text']);
    assert.deepEqual([copyOk.code, copyOk.chunks], [0, ['run.cjs']], 'the copy is the same package');
  });

  it('a lock that pins the default bundle itself (as in the skillctl repository) also runs it from the snapshot', () => {
    const r = traced(BIN, ['fs.read_text'], join(ROOT, 'bench', 'inputs', 'fs-read-text.json'), ROOT);
    assert.equal(r.code, 0, JSON.stringify(r.doc));
    assert.equal((r.doc as unknown as { skill: { origin: string } }).skill.origin, 'lock');
    assert.deepEqual(r.chunks, ['run.cjs']);
  });

  it('an input the fast JSON reader does not accept goes to the full parser, for its diagnostics', async () => {
    const dup = join(dir, 'duplicate.json');
    await writeFile(dup, '{"path": "hello.txt", "path": "/etc/passwd"}');
    const r = traced(BIN, ['fs.read_text'], dup);
    assert.equal(r.code, 2);
    // The full YAML/JSON parser is its own chunk, loaded only for a document with findings.
    assert.deepEqual(r.chunks, ['run-full.cjs', 'run.cjs', 'yaml-document.cjs']);
    // The parser's finding is the input's own, at the parser's line and column.
    assert.deepEqual(
      r.doc.diagnostics.filter((d) => d.code !== 'RUN_UNPINNED').map((d) => [d.code, d.message]),
      [['RUN_INPUT_INVALID', 'the input is refused: key "path" appears twice in the same mapping']],
    );
  });

  it('validates a default bundle whose bytes differ from the snapshot in full: an edit that keeps it valid runs', async () => {
    const manifest = join(copy, 'manifests', 'default', 'fs.read_text', 'skill.yaml');
    const original = await readFile(manifest, 'utf8');
    try {
      await appendFile(manifest, '# a comment changes the bytes, not the manifest\n');
      const r = traced(join(copy, 'bin', 'skillctl.js'), ['fs.read_text']);
      assert.equal(r.code, 0, JSON.stringify(r.doc));
      // The quick YAML reader is one chunk shared by every command that reads a clean manifest.
      assert.deepEqual(r.chunks, ['run-full.cjs', 'run.cjs', 'yaml-fast.cjs'], 'validated in full, the clean manifest without the full YAML parser');
    } finally {
      await writeFile(manifest, original);
    }
  });

  it('refuses a default bundle whose manifest or files were changed (exit 1), found by the full validation', async () => {
    const bundle = join(copy, 'manifests', 'default', 'fs.read_text');
    const manifest = join(bundle, 'skill.yaml');
    const original = await readFile(manifest, 'utf8');
    try {
      await writeFile(manifest, original.replace('description: Read a text file', 'description: Read any file'));
      const edited = traced(join(copy, 'bin', 'skillctl.js'), ['fs.read_text']);
      assert.equal(edited.code, 1);
      assert.deepEqual([edited.doc.status, edited.chunks], ['bundle_invalid', ['run-full.cjs', 'run.cjs', 'yaml-document.cjs', 'yaml-fast.cjs']]);
      assert.ok(edited.doc.diagnostics.some((d) => d.code === 'MANIFEST_DIGEST_MISMATCH'));
    } finally {
      await writeFile(manifest, original);
    }
    await writeFile(join(bundle, 'extra.js'), 'process.exit(0)\n');
    const added = traced(join(copy, 'bin', 'skillctl.js'), ['fs.read_text']);
    assert.equal(added.code, 1);
    assert.ok(added.doc.diagnostics.some((d) => d.code === 'CONTENT_DIGEST_MISMATCH'));
  });

  it('the run chunk holds none of the heavy half: no YAML parser, no ajv, no manifest or policy validators', async () => {
    const chunk = await readFile(join(ROOT, 'dist', 'cmd', 'run.cjs'), 'utf8');
    // The YAML parser, ajv and its formats, and the manifest and policy schemas' validators.
    for (const heavy of ['LineCounter', 'strictSchema', 'addFormats', 'skill.contract.v1.schema.json', 'policy.v1.schema.json']) {
      assert.ok(!chunk.includes(heavy), heavy);
    }
  });
});

