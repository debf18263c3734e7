// `--audit FILE` names a log of one's own. Its chain has no key: a skill run under a policy that
// lets it write the log's folder could rewrite the log and its chain whole. `run` and `mcp` warn
// (AUDIT_FILE_WRITABLE, exit status unchanged) when a project's policy lets skills write it, and
// say nothing for a log in the project's .skillctl/ or outside every write grant.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { json, skillctl, type CliRun } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

interface RunDoc {
  readonly status: string;
  readonly diagnostics: readonly { readonly code: string; readonly severity: string; readonly message: string; readonly hint?: string }[];
}

describe('run --audit FILE where a skill of the project may rewrite it', () => {
  const root = realpathSync(tempDir('skillctl-audit-place-'));
  const proj = join(root, 'proj');
  const read = (audit: string, cwd = proj) => skillctl(['run', 'fs.read_text', '--input', '-', '--json', '--audit', audit], { cwd, input: JSON.stringify({ path: 'notes.txt' }) });
  const warnings = (r: CliRun) => json<RunDoc>(r).diagnostics.filter((d) => d.severity === 'warning');

  before(async () => {
    await mkdir(join(proj, '.git'), { recursive: true });
    await mkdir(join(proj, 'logs'));
    await writeFile(join(proj, 'notes.txt'), 'notes\n');
    await writeFile(join(proj, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n  fs.write: [logs]\n');
  });

  it('warns, naming the log, the grant and the policy, and runs and records as usual (exit 0)', () => {
    const r = read('logs/ci.jsonl');
    const log = join(proj, 'logs', 'ci.jsonl');
    assert.deepEqual([r.code, json<RunDoc>(r).status], [0, 'ok'], r.stdout);
    assert.deepEqual(
      warnings(r).map((d) => [d.code, d.message, d.hint]),
      [
        [
          'AUDIT_FILE_WRITABLE',
          `the audit log ${log} lies inside ${join(proj, 'logs')}, which the policy of the project ${proj} (${join(proj, 'skillctl.policy.yaml')}) lets skills write: a skill run there could rewrite this log and its chain`,
          `keep it in ${proj}/.skillctl/ (every run of ${proj} holds that folder), or keep its head elsewhere (run --json prints audit.head; audit verify --head checks it)`,
        ],
      ],
    );
    assert.equal(skillctl(['audit', 'verify', log], { cwd: proj }).code, 0);
  });

  it('says nothing for a log in .skillctl/, outside every write grant, or outside the project', () => {
    for (const audit of ['.skillctl/ci.jsonl', 'ci-audit.jsonl', join(root, 'elsewhere.jsonl')]) {
      const r = read(audit);
      assert.deepEqual([r.code, warnings(r).map((d) => d.code)], [0, []], audit);
    }
  });

  it('judges the project that holds the log from a run started elsewhere too', () => {
    const r = read(join(proj, 'logs', 'other.jsonl'), root);
    assert.deepEqual(warnings(r).map((d) => d.code), ['AUDIT_FILE_WRITABLE'], r.stdout);
  });
});
