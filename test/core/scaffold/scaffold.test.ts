import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validateAgentSkill } from '../../../src/core/agent-skills/index.js';
import { validateBundle } from '../../../src/core/manifest/index.js';
import { scaffoldSkill, type ScaffoldSpec } from '../../../src/core/scaffold/index.js';
import { tempDir } from '../../helpers/tmp.js';

async function writeOut(spec: ScaffoldSpec): Promise<string> {
  const s = await scaffoldSkill(spec);
  assert.ok(s.files, JSON.stringify(s.diagnostics));
  const dir = join(tempDir(), spec.dirName);
  for (const f of s.files) {
    mkdirSync(join(dir, f.path, '..'), { recursive: true });
    writeFileSync(join(dir, f.path), f.data, { mode: f.mode === '0755' ? 0o755 : 0o644 });
  }
  return dir;
}

const VERSION = { python: '3.11.7', node: process.versions.node, shell: 'bash@5.2' } as const;

describe('init scaffolds', () => {
  for (const runtime of ['python', 'node', 'shell'] as const) {
    it(`a ${runtime} skill.yaml bundle validates with no finding, and its starter script honours its schemas`, async () => {
      const dir = await writeOut({ format: 'manifest', id: 'acme.tidy', description: 'Tidy text.', runtime, runtimeVersion: VERSION[runtime], dirName: 'tidy' });
      const r = await validateBundle(dir);
      assert.equal(r.valid, true, JSON.stringify(r.diagnostics));
      assert.deepEqual(r.diagnostics.filter((d) => d.severity !== 'info'), []);
      const ep = r.manifest?.entrypoints[0];
      assert.ok(ep);
      const cmd = ep.command as string[];
      const exe = cmd[0] === 'node' ? process.execPath : (cmd[0] as string);
      const input = JSON.stringify({ text: '  a   b  ' });
      const out = spawnSync(exe, cmd.slice(1), { cwd: dir, input, encoding: 'utf8' });
      assert.equal(out.status, 0, out.stderr);
      const result = JSON.parse(out.stdout) as Record<string, unknown>;
      assert.deepEqual(result, runtime === 'shell' ? { bytes: Buffer.byteLength(input) } : { result: 'a b' });
    });
  }

  it('records the permissions given as both requested and required', async () => {
    const dir = await writeOut({
      format: 'manifest',
      id: 'fetcher',
      description: 'Fetch.',
      runtime: 'node',
      runtimeVersion: '20.19.0',
      permissions: { 'net.http': ['https://api.example.com/'], env: ['API_TOKEN'] },
      dirName: 'fetcher',
    });
    const ep = (await validateBundle(dir)).manifest?.entrypoints[0];
    assert.deepEqual(ep?.requested_permissions, { 'net.http': ['https://api.example.com/'], env: ['API_TOKEN'] });
    assert.deepEqual(ep?.required_permissions, ep?.requested_permissions);
  });

  for (const runtime of ['none', 'python'] as const) {
    it(`an Agent Skills folder (${runtime}) validates under the strict profile`, async () => {
      const dir = await writeOut({ format: 'skill-md', id: 'tidy-text', description: 'Tidy text. Use when asked to clean up spacing.', runtime, dirName: 'tidy-text' });
      const r = await validateAgentSkill(dir, { profile: 'strict' });
      assert.deepEqual(r.diagnostics, []);
    });
  }

  it('returns findings, not files, when the result would not validate', async () => {
    const cases: [ScaffoldSpec, string][] = [
      [{ format: 'skill-md', id: 'tidy-text', description: 'x', runtime: 'none', dirName: 'other' }, 'AGENT_SKILL_NAME_DIR_MISMATCH'],
      [{ format: 'manifest', id: 'Bad Id', description: 'x', runtime: 'python', runtimeVersion: '3.11.7', dirName: 'x' }, 'SCHEMA_FORMAT'],
      [{ format: 'manifest', id: 'ok', description: 'x', runtime: 'python', runtimeVersion: '3', dirName: 'ok' }, 'RUNTIME_UNPINNED'],
      [{ format: 'manifest', id: 'ok', description: 'x', runtime: 'python', runtimeVersion: '3.11.7', permissions: { 'fs.read': ['../up'] }, dirName: 'ok' }, 'PERMISSION_VALUE_INVALID'],
      [{ format: 'manifest', id: 'ok', description: 'x', runtime: 'none', dirName: 'ok' }, 'USAGE'],
    ];
    for (const [spec, code] of cases) {
      const s = await scaffoldSkill(spec);
      assert.equal(s.files, undefined, code);
      assert.ok(s.diagnostics.some((d) => d.code === code), `${code}: ${JSON.stringify(s.diagnostics.map((d) => d.code))}`);
    }
  });
});
