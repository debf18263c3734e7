import assert from 'node:assert/strict';
import { chmodSync, cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  agentSkillToManifest,
  classifyScript,
  convertSkillDir,
  entrypointIds,
  manifestToSkillMd,
  nameFromSkillId,
  validateAgentSkill,
  type ConvertRequest,
  type RuntimeVersions,
} from '../../../src/core/agent-skills/index.js';
import { dirSource } from '../../../src/core/bundle/index.js';
import { isSkillctlError } from '../../../src/core/errors.js';
import { validateBundle, type Manifest } from '../../../src/core/manifest/index.js';
import { canonicalManifest } from '../../helpers/manifests.js';
import { fixture } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

const VERSIONS: RuntimeVersions = { python: '3.11.7', node: '20.19.0', shell: 'bash@5.2' };

function copy(name: string, kind = 'valid'): string {
  const dir = join(tempDir(), name);
  cpSync(fixture('agent-skills', kind, name), dir, { recursive: true });
  return dir;
}

async function convert(dir: string, opts: { id?: string; runtimeVersions?: RuntimeVersions } = {}): Promise<Awaited<ReturnType<typeof agentSkillToManifest>>> {
  const v = await validateAgentSkill(dir, { label: 'skill' });
  return agentSkillToManifest(dirSource(dir), v, { file: 'skill/skill.yaml', runtimeVersions: VERSIONS, ...opts });
}

describe('SKILL.md to skill.yaml', () => {
  it('makes each script an entrypoint with empty permissions, and the result validates on disk', async () => {
    const dir = copy('pdf-tools');
    writeFileSync(join(dir, 'scripts', 'fill_form.mjs'), 'console.log("{}")\n');
    writeFileSync(join(dir, 'scripts', 'check'), '#!/usr/bin/env bash\necho "{}"\n');
    chmodSync(join(dir, 'scripts', 'check'), 0o755);
    const r = await convert(dir);
    assert.ok(r.text, JSON.stringify(r.diagnostics));
    const m = r.manifest as unknown as Manifest;
    assert.equal(m.skill_id, 'pdf-tools');
    assert.equal(m.skill_version, '1.2.0', 'metadata.version is used when it is a semantic version');
    assert.deepEqual(
      m.entrypoints.map((e) => [e.entrypoint_id, e.runtime, e.runtime_version, e.command]),
      [
        ['check', 'shell', 'bash@5.2', ['scripts/check']],
        ['extract', 'python', '3.11.7', ['python3', 'scripts/extract.py']],
        ['fill_form', 'node', '20.19.0', ['node', 'scripts/fill_form.mjs']],
      ],
    );
    for (const e of m.entrypoints) {
      assert.deepEqual(e.requested_permissions, {});
      assert.deepEqual(e.required_permissions, {});
    }
    writeFileSync(join(dir, 'skill.yaml'), r.text);
    const v = await validateBundle(dir);
    assert.equal(v.valid, true, JSON.stringify(v.diagnostics));
    assert.deepEqual(v.diagnostics.filter((d) => d.severity !== 'info'), []);
  });

  it('skips private modules and unknown files, and warns about a shell script without an execute bit', async () => {
    const dir = copy('pdf-tools');
    writeFileSync(join(dir, 'scripts', '_shared.py'), 'X = 1\n');
    writeFileSync(join(dir, 'scripts', 'data.csv'), 'a,b\n');
    writeFileSync(join(dir, 'scripts', 'tidy.sh'), 'echo "{}"\n');
    chmodSync(join(dir, 'scripts', 'tidy.sh'), 0o644);
    const r = await convert(dir);
    assert.ok(r.text);
    assert.deepEqual(
      r.diagnostics.filter((d) => d.code.startsWith('AGENT_SKILL_SCRIPT')).map((d) => [d.code, d.file]),
      [
        ['AGENT_SKILL_SCRIPT_SKIPPED', 'skill/scripts/_shared.py'],
        ['AGENT_SKILL_SCRIPT_SKIPPED', 'skill/scripts/data.csv'],
        ['AGENT_SKILL_SCRIPT_NOT_EXECUTABLE', 'skill/scripts/tidy.sh'],
      ],
    );
  });

  it('refuses a skill without scripts, an invalid skill_id, a missing runtime version, and an invalid skill', async () => {
    assert.deepEqual((await convert(copy('minimal-skill'))).diagnostics.map((d) => d.code), ['AGENT_SKILL_CONVERT_NO_SCRIPTS']);
    const bad = await convert(copy('pdf-tools'), { id: 'Not An Id' });
    assert.equal(bad.text, undefined);
    assert.deepEqual(bad.diagnostics.map((d) => d.code), ['AGENT_SKILL_CONVERT_ID_INVALID']);
    const noVersion = await convert(copy('pdf-tools'), { runtimeVersions: {} });
    assert.deepEqual(noVersion.diagnostics.map((d) => d.code), ['AGENT_SKILL_RUNTIME_VERSION_MISSING']);
    const invalid = await convert(copy('name-dir-mismatch', 'invalid'));
    assert.equal(invalid.text, undefined);
    assert.deepEqual(invalid.diagnostics.map((d) => d.code), ['AGENT_SKILL_NAME_DIR_MISMATCH']);
  });

  it('classifies scripts by extension, then by #! line', () => {
    assert.equal(classifyScript('scripts/a.py', ''), 'python');
    assert.equal(classifyScript('scripts/a.cjs', ''), 'node');
    assert.equal(classifyScript('scripts/a.bash', ''), 'shell');
    assert.equal(classifyScript('scripts/run', '#!/usr/bin/env -S python3 -u'), 'python');
    assert.equal(classifyScript('scripts/run', '#!/usr/local/bin/node'), 'node');
    assert.equal(classifyScript('scripts/run', '#!/bin/sh'), 'shell');
    assert.equal(typeof classifyScript('scripts/run', '#!/usr/bin/perl'), 'object');
    assert.equal(typeof classifyScript('scripts/__init__.py', ''), 'object');
  });

  it('gives distinct valid entrypoint ids, even for clashing file names', () => {
    assert.deepEqual(entrypointIds(['scripts/run.py', 'scripts/run.sh', 'scripts/sub/run.py', 'scripts/my tool.py', 'scripts/-.py']), [
      'run.py',
      'run.sh',
      'sub.run.py',
      'my-tool',
      'script',
    ]);
  });
});

describe('skill.yaml to SKILL.md', () => {
  const manifest = canonicalManifest() as unknown as Manifest;

  it('names the skill after its folder and lists the entrypoints; the text passes the SKILL.md checks', () => {
    const r = manifestToSkillMd(manifest, { dirName: 'demo-skill', files: [], file: 'demo-skill/SKILL.md' });
    assert.ok(r.text, JSON.stringify(r.diagnostics));
    assert.equal(r.name, 'demo-skill');
    assert.match(r.text, /^---\nname: demo-skill\ndescription: Summarise a task description\.\nmetadata:\n {2}skillctl\.skill_id: skill\.demo\n/);
    assert.match(r.text, /\| `main` \| python 3\.11\.0 \| `python run\.py` \|/);
  });

  it('refuses a folder name that cannot be a skill name, unless --name is given and matches', () => {
    const r = manifestToSkillMd(manifest, { dirName: 'Demo_Skill', files: [], file: 'SKILL.md' });
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['AGENT_SKILL_CONVERT_NAME_INVALID']);
    assert.match(r.diagnostics[0]?.hint ?? '', /skill-demo/);
    const named = manifestToSkillMd(manifest, { dirName: 'Demo_Skill', files: [], file: 'SKILL.md', name: 'demo-skill' });
    assert.deepEqual(named.diagnostics.map((d) => d.code), ['AGENT_SKILL_NAME_DIR_MISMATCH']);
  });

  it('refuses a description longer than the 1024 characters SKILL.md allows', () => {
    const r = manifestToSkillMd({ ...manifest, description: 'd'.repeat(2000) }, { dirName: 'demo', files: [], file: 'SKILL.md' });
    assert.equal(r.text, undefined);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['AGENT_SKILL_DESCRIPTION_TOO_LONG']);
  });

  it('derives spec-valid names from skill ids', () => {
    assert.equal(nameFromSkillId('acme.pdf_tools'), 'acme-pdf-tools');
    assert.equal(nameFromSkillId('fs.read_text'), 'fs-read-text');
    assert.equal(nameFromSkillId('a'.repeat(63) + '.b'), 'a'.repeat(63));
  });
});

describe('convert round trip', () => {
  it('SKILL.md -> skill.yaml keeps the folder a valid Agent Skill too', async () => {
    const dir = copy('pdf-tools');
    mkdirSync(join(dir, 'assets', 'extra'), { recursive: true });
    const r = await convert(dir);
    writeFileSync(join(dir, 'skill.yaml'), r.text as string);
    assert.equal((await validateAgentSkill(dir)).valid, true);
    assert.equal((await validateBundle(dir)).valid, true);
  });
});

describe('convertSkillDir (skillctl convert)', () => {
  const req = (dir: string, more: Partial<ConvertRequest> = {}): ConvertRequest => ({
    dir,
    label: 'skill',
    force: false,
    nameCharset: 'ascii',
    runtimeVersion: (runtime) => VERSIONS[runtime],
    ...more,
  });

  it('writes skill.yaml for a SKILL.md folder, and the bundle validates', async () => {
    const dir = copy('pdf-tools');
    const r = await convertSkillDir(req(dir));
    assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
    assert.equal(r.value?.format, 'manifest');
    assert.equal(r.value?.written, join('skill', 'skill.yaml'));
    assert.equal((await validateBundle(dir)).valid, true);
  });

  it('writes SKILL.md for a bundle and updates its digests; refuses to replace it without force', async () => {
    const dir = join(tempDir(), 'golden-bundle');
    cpSync(fixture('pack', 'golden-bundle'), dir, { recursive: true });
    const r = await convertSkillDir(req(dir));
    assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
    assert.deepEqual([r.value?.format, r.value?.written], ['skill-md', join('skill', 'SKILL.md')]);
    assert.equal((await validateBundle(dir)).valid, true);
    await assert.rejects(convertSkillDir(req(dir, { to: 'skill-md' })), (err: unknown) => isSkillctlError(err) && err.code === 'OUTPUT_EXISTS');
  });

  it('says why a folder cannot be converted: missing, neither format, both without --to', async () => {
    const empty = tempDir();
    const both = copy('pdf-tools');
    writeFileSync(join(both, 'skill.json'), '{}');
    const codes = async (r: ConvertRequest): Promise<unknown> => convertSkillDir(r).then(() => 'converted', (err: unknown) => (isSkillctlError(err) ? err.code : err));
    assert.equal(await codes(req(join(empty, 'nope'))), 'INPUT_NOT_FOUND');
    assert.equal(await codes(req(empty)), 'NO_INPUT');
    assert.equal(await codes(req(both)), 'USAGE');
  });

  it('returns the findings of an invalid SKILL.md and writes nothing', async () => {
    const dir = copy('name-missing', 'invalid');
    const r = await convertSkillDir(req(dir));
    assert.equal(r.ok, false);
    assert.ok(r.diagnostics.some((d) => d.severity === 'error'));
    assert.equal(existsSync(join(dir, 'skill.yaml')), false);
  });
});
