// `skillctl run --check-determinism`: two recorded runs compared by their fingerprints.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { verifyAuditLog } from '../../src/core/run/index.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { json, skillctl } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

interface CheckDoc {
  status: string;
  exit_code: number;
  output: unknown;
  fingerprints: { args: string | null; result: string | null; side_effects: string | null };
  determinism?: { run_ids: string[]; differ: string[] };
  diagnostics: { code: string; severity: string }[];
}

const OK = { type: 'object', required: ['ok'], properties: { ok: { type: 'string' } } };
const RANDOM = 'process.stdin.resume().on("end",()=>process.stdout.write(JSON.stringify({ok:String(Math.random())})));\n';
const FIXED = 'process.stdin.resume().on("end",()=>process.stdout.write(JSON.stringify({ok:"same"})));\n';

describe('skillctl run --check-determinism', () => {
  const tmp = tempDir('skillctl-cli-det-');
  let project: string;
  const audit = (): string => join(project, '.skillctl', 'audit.jsonl');
  const records = async (): Promise<{ event: string; run_id: string; fingerprints: CheckDoc['fingerprints'] }[]> =>
    (await readFile(audit(), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; run_id: string; fingerprints: CheckDoc['fingerprints'] });
  const node = (over: Record<string, unknown>): Record<string, unknown> =>
    entry({ runtime: 'node', runtime_version: process.version.slice(1), command: 'node main.js', output_schema: OK, ...over });

  before(async () => {
    project = realpathSync(tmp);
    await mkdir(join(project, '.git'));
    await writeFile(join(project, 'skillctl.policy.yaml'), 'version: 1\nallow_unsandboxed: true\npermissions:\n  fs.read: [.]\n  fs.write: [out]\n');
    await writeFile(join(project, 'notes.txt'), 'hello\n');
    await writeBundle(join(project, 'random'), { entrypoints: [node({})], files: { 'main.js': RANDOM } });
    await writeBundle(join(project, 'fixed'), { entrypoints: [node({})], files: { 'main.js': FIXED } });
    // The output declares `at`, which no result fingerprint field covers: not eligible.
    await writeBundle(join(project, 'uncovered'), {
      entrypoints: [node({ output_schema: { ...OK, properties: { ok: { type: 'string' }, at: { type: 'string' } } } })],
      files: { 'main.js': FIXED },
    });
    await writeBundle(join(project, 'writer'), {
      entrypoints: [
        node({
          requested_permissions: { 'fs.write': ['out'] },
          required_permissions: { 'fs.write': ['out'] },
          side_effect_categories: ['filesystem.write'],
          side_effect_fingerprint_fields: ['input.path'],
        }),
      ],
      files: { 'main.js': FIXED },
    });
  });

  it('a built-in that reads a file: two runs agree, the output is printed once', async () => {
    const r = skillctl(['run', 'fs.read_text', '--input', '-', '--check-determinism'], { cwd: project, input: '{"path":"notes.txt"}' });
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { text: string }).text, 'hello\n');
    const recs = await records();
    assert.deepEqual(recs.map((x) => x.event), ['start', 'end', 'start', 'end']);
    assert.notEqual(recs[1]?.run_id, recs[3]?.run_id);
    assert.deepEqual(recs[1]?.fingerprints, recs[3]?.fingerprints);
    assert.ok(recs[1]?.fingerprints.result?.startsWith('sha256:'));
    assert.deepEqual(verifyAuditLog(await readFile(audit(), 'utf8'), audit()).diagnostics, []);
  });

  it('a process that prints a random number: RUN_NONDETERMINISTIC naming the result fingerprint, exit 1', () => {
    const r = skillctl(['run', './random', '--check-determinism', '--sandbox', 'none', '--json'], { cwd: project });
    assert.equal(r.code, 1, r.stderr);
    const doc = json<CheckDoc>(r);
    assert.deepEqual(doc.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code), ['RUN_NONDETERMINISTIC']);
    assert.deepEqual(doc.determinism?.differ, ['result']);
    assert.equal(doc.determinism?.run_ids.length, 2);
    // The two recorded runs, compared after the fact by run id.
    const [one, two] = doc.determinism?.run_ids ?? [];
    const diff = skillctl(['audit', 'diff', one ?? '', two ?? '', '--json'], { cwd: project });
    assert.equal(diff.code, 1, diff.stdout);
    assert.deepEqual(json<{ differ: string[] }>(diff).differ, ['result']);
    assert.equal(skillctl(['audit', 'diff', one ?? '', one ?? ''], { cwd: project }).code, 0);
    assert.equal(skillctl(['audit', 'diff', '9999', one ?? ''], { cwd: project }).code, 2);
    const fixed = skillctl(['run', './fixed', '--check-determinism', '--sandbox', 'none', '--json'], { cwd: project });
    assert.equal(fixed.code, 0, fixed.stdout);
    assert.deepEqual(json<CheckDoc>(fixed).determinism?.differ, []);
  });

  it('refuses, before anything runs, an ineligible entrypoint and one that may write files (exit 2)', async () => {
    const before = (await records()).length;
    const ineligible = skillctl(['run', './uncovered', '--check-determinism', '--sandbox', 'none', '--json'], { cwd: project });
    assert.equal(ineligible.code, 2);
    assert.deepEqual(json<CheckDoc>(ineligible).diagnostics.map((d) => d.code), ['RUN_DETERMINISM_INELIGIBLE']);
    const writer = skillctl(['run', './writer', '--check-determinism', '--sandbox', 'none'], { cwd: project });
    assert.equal(writer.code, 2);
    assert.match(writer.stderr, /RUN_DETERMINISM_WRITES/);
    assert.equal((await records()).length, before);
    // Without the option the writer runs as usual.
    assert.equal(skillctl(['run', './writer', '--sandbox', 'none'], { cwd: project }).code, 0);
  });
});
