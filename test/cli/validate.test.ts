import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { json, skillctl } from '../helpers/cli.js';
import { canonicalManifest, entrypoint, withDigest } from '../helpers/manifests.js';
import { fixture, ROOT } from '../helpers/paths.js';
import { rawZip } from '../helpers/raw-zip.js';
import { assertSarif } from '../helpers/sarif.js';
import { tempDir } from '../helpers/tmp.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

interface Result {
  file: string;
  valid: boolean;
  metadata: Record<string, unknown>;
  loader_error: Record<string, unknown> | null;
  diagnostics: { code: string; severity: string; message: string; pointer?: string; line?: number; column?: number }[];
}

describe('skillctl validate', () => {
  it('exits 0 and summarises when every manifest is valid', () => {
    const r = skillctl(['validate', fixture('manifests', 'valid', 'node-entrypoint')]);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /1 manifest checked: all valid/);
  });

  it('exits 1 with findings grouped per file, with line, column, code and pointer', () => {
    const r = skillctl(['validate', 'fixtures/manifests/invalid/unknown-field-misspelt']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /skill\.yaml\n\s+\d+:\d+\s+error\s+SCHEMA_UNKNOWN_FIELD .*\/entrypoints\/0\/entrypiont_id/);
    assert.match(r.stdout, /did you mean `entrypoint_id`/);
  });

  it('--json prints one object: per-manifest results with metadata and loader error, and the tally', () => {
    const r = skillctl(['validate', '--json', 'fixtures/manifests/invalid/runtime-unpinned-python', 'fixtures/manifests/valid/node-entrypoint']);
    assert.equal(r.code, 1);
    const doc = json<{ results: Result[] }>(r).results;
    assert.equal(doc.length, 2);
    const [bad, good] = doc;
    assert.equal(bad?.valid, false);
    assert.equal(bad?.loader_error?.error_code, 'ERR_RUNTIME_UNPINNED');
    assert.equal(bad?.loader_error?.entrypoint_id, 'main');
    assert.equal(bad?.metadata.runtime_pinning, 'unpinned');
    assert.deepEqual(bad?.diagnostics.map((d) => d.code), ['RUNTIME_UNPINNED']);
    assert.equal(good?.valid, true);
    assert.equal(good?.loader_error, null);
    assert.deepEqual(json<{ summary: unknown }>(r).summary, { checked: 2, valid: 1, invalid: 1, errors: 1, warnings: 0 });
  });

  it('--json output is byte-identical across runs', () => {
    const a = skillctl(['validate', '--json', 'fixtures/manifests']);
    const b = skillctl(['validate', '--json', 'fixtures/manifests']);
    assert.equal(a.stdout, b.stdout);
  });

  it('searches a directory for bundles and accepts globs', () => {
    const dir = skillctl(['validate', '--json', 'fixtures/manifests/valid']);
    assert.equal(json<{ results: Result[] }>(dir).results.length, 10);
    const glob = skillctl(['validate', '--json', 'fixtures/manifests/valid/*-entrypoint/skill.yaml']);
    assert.deepEqual(
      json<{ results: Result[] }>(glob).results.map((x) => x.file),
      ['builtin', 'node', 'python'].map((k) => `fixtures/manifests/valid/${k}-entrypoint/skill.yaml`),
    );
  });

  it('reads a manifest from stdin with -, noting that content_digest could not be checked', () => {
    const text = readFileSync(fixture('manifests', 'valid', 'node-entrypoint', 'skill.yaml'));
    const r = skillctl(['validate', '--json', '-'], { input: text });
    assert.equal(r.code, 0, r.stdout);
    const [res] = json<{ results: Result[] }>(r).results;
    assert.deepEqual(res?.diagnostics.map((d) => d.code), ['CONTENT_DIGEST_UNVERIFIED']);
    const asJson = skillctl(['validate', '--json', '-'], { input: readFileSync(fixture('manifests', 'valid', 'json-manifest', 'skill.json')) });
    assert.equal(asJson.code, 0, asJson.stdout);
  });

  it('a missing path is a usage error (exit 2, INPUT_NOT_FOUND)', () => {
    const r = skillctl(['validate', '--json', 'no/such/dir']);
    assert.equal(r.code, 2);
    const doc = json<{ ok: boolean; results: unknown[]; input_errors: { code: string; file?: string }[] }>(r);
    assert.equal(doc.ok, false);
    assert.deepEqual(doc.results, []);
    assert.deepEqual(doc.input_errors.map((d) => [d.code, d.file]), [['INPUT_NOT_FOUND', 'no/such/dir']]);
  });

  it('a directory with no bundle is a usage error (exit 2, NO_INPUT)', () => {
    const r = skillctl(['validate', 'fixtures/manifests/invalid/no-manifest']);
    assert.equal(r.code, 2);
    assert.match(r.stdout, /NO_INPUT/);
  });

  it('a symlink loop as the argument is reported, not followed', () => {
    const dir = tempDir();
    symlinkSync(join(dir, 'self'), join(dir, 'self'));
    const r = skillctl(['validate', join(dir, 'self')]);
    assert.equal(r.code, 2);
    assert.match(r.stdout, /INPUT_UNREADABLE/);
  });

  it('--format sarif writes SARIF 2.1.0 with rules and regions', () => {
    const r = skillctl(['validate', '--format', 'sarif', 'fixtures/manifests/invalid/wrong-types']);
    assert.equal(r.code, 1);
    const sarif = assertSarif(r.stdout);
    assert.equal(sarif.version, '2.1.0');
    const run = sarif.runs[0];
    assert.deepEqual(run?.tool.driver.rules.map((x) => [x.id, x.helpUri]), [['SCHEMA_TYPE', `https://github.com/skillctl/skillctl/blob/v${VERSION}/docs/codes.md#schema_type`]]);
    assert.equal(run?.results.length, 2);
    const location = { uri: 'fixtures/manifests/invalid/wrong-types/skill.yaml', uriBaseId: '%SRCROOT%' };
    assert.deepEqual(run?.results.map((x) => x.locations[0]?.physicalLocation.artifactLocation), [location, location]);
    assert.deepEqual(run?.originalUriBaseIds, { '%SRCROOT%': { uri: pathToFileURL(ROOT).href } });
    assert.deepEqual(run?.results.map((x) => x.locations[0]?.physicalLocation.region?.startLine).sort(), [4, 40].sort());
  });

  it('--format sarif percent-encodes paths, and gives files beside the working directory a path relative to it', () => {
    const dir = tempDir();
    const work = join(dir, 'work');
    cpSync(fixture('manifests', 'invalid', 'wrong-types'), join(work, 'my skill#1'), { recursive: true });
    cpSync(fixture('manifests', 'invalid', 'wrong-types'), join(dir, 'beside 100%'), { recursive: true });
    const r = skillctl(['validate', '--format', 'sarif', 'my skill#1', '../beside 100%'], { cwd: work });
    assert.equal(r.code, 1, r.stderr);
    const run = assertSarif(r.stdout).runs[0];
    assert.deepEqual(new Set(run?.results.map((x) => JSON.stringify(x.locations[0]?.physicalLocation.artifactLocation))), new Set([
      JSON.stringify({ uri: 'my%20skill%231/skill.yaml', uriBaseId: '%SRCROOT%' }),
      JSON.stringify({ uri: '../beside%20100%25/skill.yaml', uriBaseId: '%SRCROOT%' }),
    ]));
    assert.deepEqual(run?.originalUriBaseIds, { '%SRCROOT%': { uri: `${pathToFileURL(work).href}/` } });
  });

  it('--quiet prints only errors, and colour follows NO_COLOR and FORCE_COLOR', () => {
    const q = skillctl(['validate', '--quiet', 'fixtures/manifests/valid']);
    assert.equal(q.code, 0);
    assert.equal(q.stdout, '');
    const coloured = skillctl(['validate', 'fixtures/manifests/invalid/wrong-types'], { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    assert.match(coloured.stdout, /\u001b\[/);
    const plain = skillctl(['validate', 'fixtures/manifests/invalid/wrong-types'], { env: { NO_COLOR: '1' } });
    assert.doesNotMatch(plain.stdout, /\u001b\[/);
    const flag = skillctl(['validate', '--no-color', 'fixtures/manifests/invalid/wrong-types'], { env: { FORCE_COLOR: '1' } });
    assert.doesNotMatch(flag.stdout, /\u001b\[/);
  });
});

describe('skillctl validate --json: determinism per entrypoint', () => {
  it('each entrypoint has determinism { eligible, reasons }, each reason a code, pointer and message', () => {
    const m = canonicalManifest();
    const eligible = entrypoint(m);
    const timed = {
      ...eligible,
      entrypoint_id: 'timed',
      tool_profile_id: 'tool.timed',
      output_schema: { type: 'object', properties: { summary: { type: 'string' }, duration_ms: { type: 'integer' } } },
      requested_determinism_profile: 'strict',
    };
    m.entrypoints = [eligible, timed];
    const r = skillctl(['validate', '--json', '-'], { input: JSON.stringify(withDigest(m)) });
    // Ineligible is not invalid: the request for strict determinism is a warning.
    assert.equal(r.code, 0, r.stdout);
    const [res] = json<{ results: (Result & { entrypoints: unknown[] })[] }>(r).results;
    assert.equal(res?.valid, true);
    assert.equal(res?.metadata.determinism_eligible, false);
    assert.equal(res?.metadata.fingerprint_completeness, 'incomplete');
    assert.deepEqual(res?.entrypoints, [
      { entrypoint_id: 'main', pointer: '/entrypoints/0', determinism: { eligible: true, reasons: [] } },
      {
        entrypoint_id: 'timed',
        pointer: '/entrypoints/1',
        determinism: {
          eligible: false,
          reasons: [
            {
              code: 'DETERMINISM_FINGERPRINT_UNCOVERED',
              pointer: '/entrypoints/1/output_schema/properties/duration_ms',
              message: res?.diagnostics.find((d) => d.code === 'DETERMINISM_FINGERPRINT_UNCOVERED')?.message,
            },
          ],
        },
      },
    ]);
    assert.deepEqual(
      res?.diagnostics.map((d) => [d.severity, d.code, d.pointer]),
      [
        ['info', 'DETERMINISM_FINGERPRINT_UNCOVERED', '/entrypoints/1/output_schema/properties/duration_ms'],
        ['warning', 'DETERMINISM_REQUEST_UNMET', '/entrypoints/1/requested_determinism_profile'],
      ],
    );
    // The keys of a result keep their order, the new one after metadata.
    assert.deepEqual(Object.keys(res ?? {}).slice(0, 7), ['file', 'skill_id', 'skill_version', 'valid', 'metadata', 'entrypoints', 'loader_error']);
  });

  it('a manifest that does not parse has no entrypoints', () => {
    const r = skillctl(['validate', '--json', '-'], { input: '{ "skill_id": ' });
    const [res] = json<{ results: (Result & { entrypoints: unknown[] })[] }>(r).results;
    assert.deepEqual(res?.entrypoints, []);
  });
});

describe('skillctl validate ARCHIVE', () => {
  it('validates what pack wrote (a .tgz bundle, a .skill folder) inside the archive, unpacking nothing', () => {
    const dir = tempDir();
    assert.equal(skillctl(['pack', join(ROOT, 'manifests', 'default', 'fs.read_text'), '--out', join(dir, 'dist')]).code, 0);
    cpSync(fixture('agent-skills', 'valid', 'code-extension-fields'), join(dir, 'code-extension-fields'), { recursive: true });
    assert.equal(skillctl(['pack', 'code-extension-fields', '--format', 'skill', '--out', 'dist'], { cwd: dir }).code, 0);
    const r = skillctl(['validate', '--json', 'dist/fs.read_text-0.1.0.tgz', 'dist/code-extension-fields.skill'], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const results = json<{ results: Result[] }>(r).results;
    assert.deepEqual(
      results.map((x) => [x.file, x.valid]),
      [
        ['dist/fs.read_text-0.1.0.tgz/skill.yaml', true],
        ['dist/code-extension-fields.skill/SKILL.md', true],
      ],
    );
    assert.deepEqual(readdirSync(join(dir, 'dist')).sort(), ['code-extension-fields.skill', 'fs.read_text-0.1.0.tgz']);
  });

  it('a hostile .skill is refused with the archive guards: exit 1, nothing written outside', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'evil.skill'), rawZip([{ name: 'evil/SKILL.md', data: Buffer.from('---\nname: evil\ndescription: d\n---\n') }, { name: 'evil/../../pwned', data: Buffer.from('x') }]));
    const r = skillctl(['validate', 'evil.skill'], { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /ARCHIVE_PATH_UNSAFE\s+entry "evil\/\.\.\/\.\.\/pwned": `\.\.` segment/);
    assert.deepEqual(readdirSync(dir), ['evil.skill']);
  });

  it('the name in a .skill file must match its folder; a gzip that is not one is ARCHIVE_MALFORMED', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'renamed.skill'), rawZip([{ name: 'other/SKILL.md', data: Buffer.from('---\nname: renamed\ndescription: A skill.\n---\nBody.\n') }]));
    writeFileSync(join(dir, 'noise.tgz'), 'not gzip');
    const r = skillctl(['validate', 'renamed.skill', 'noise.tgz'], { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /renamed\.skill\/SKILL\.md\n.*AGENT_SKILL_NAME_DIR_MISMATCH/);
    assert.match(r.stdout, /noise\.tgz\n\s+error\s+ARCHIVE_MALFORMED {2}not a gzip file/);
  });
});

describe('skillctl validate --fix', () => {
  it('rewrites only the digest values of a YAML manifest, keeping comments and layout', () => {
    const dir = tempDir();
    cpSync(fixture('manifests', 'valid', 'node-entrypoint'), dir, { recursive: true });
    writeFileSync(join(dir, 'main.js'), 'console.log("changed");\n');
    const before = readFileSync(join(dir, 'skill.yaml'), 'utf8');
    const stale = skillctl(['validate', '--json', dir]);
    assert.equal(stale.code, 1);
    assert.deepEqual(json<{ results: Result[] }>(stale).results[0]?.diagnostics.map((d) => d.code), ['CONTENT_DIGEST_MISMATCH']);

    const fixed = skillctl(['validate', '--fix', dir]);
    assert.equal(fixed.code, 0, fixed.stdout + fixed.stderr);
    const after = readFileSync(join(dir, 'skill.yaml'), 'utf8');
    const changed = after.split('\n').filter((line, i) => line !== before.split('\n')[i]);
    assert.equal(changed.length, 2);
    assert.ok(changed.every((l) => /^(manifest|content)_digest: sha256:[0-9a-f]{64}$/.test(l)), changed.join('\n'));
    assert.ok(after.startsWith('# yaml-language-server'));
  });

  it('adds a missing content_digest after manifest_digest, and fixes JSON manifests in place', () => {
    const dir = tempDir();
    cpSync(fixture('manifests', 'valid', 'content-digest-missing'), join(dir, 'yaml'), { recursive: true });
    cpSync(fixture('manifests', 'valid', 'json-manifest'), join(dir, 'json'), { recursive: true });
    writeFileSync(join(dir, 'json', 'main.js'), '// edited\n');
    const r = skillctl(['validate', '--fix', '--json', join(dir, 'yaml'), join(dir, 'json')]);
    assert.equal(r.code, 0, r.stdout);
    assert.ok(json<{ results: Result[] }>(r).results.every((x) => x.valid && x.diagnostics.length === 0));
    const yaml = readFileSync(join(dir, 'yaml', 'skill.yaml'), 'utf8');
    assert.match(yaml, /\nmanifest_digest: sha256:[0-9a-f]{64}\ncontent_digest: sha256:[0-9a-f]{64}\n/);
    JSON.parse(readFileSync(join(dir, 'json', 'skill.json'), 'utf8'));
  });

  it('leaves a manifest that does not parse untouched', () => {
    const dir = tempDir();
    cpSync(fixture('manifests', 'invalid', 'yaml-syntax-error'), dir, { recursive: true });
    const before = readFileSync(join(dir, 'skill.yaml'));
    const r = skillctl(['validate', '--fix', dir]);
    assert.equal(r.code, 1);
    assert.deepEqual(readFileSync(join(dir, 'skill.yaml')), before);
  });
});

describe('skillctl validate on many bundles', () => {
  it('gives the same report with worker threads as without', async () => {
    const dir = tempDir();
    const { execFileSync } = await import('node:child_process');
    execFileSync(process.execPath, [join(ROOT, 'bench', 'gen-manifests.mjs'), dir, '210']);
    writeFileSync(join(dir, 'skill-0007', 'stats.js'), 'tampered\n');
    const threaded = skillctl(['validate', '--json', dir], { env: { SKILLCTL_THREADS: '2' } });
    const single = skillctl(['validate', '--json', dir], { env: { SKILLCTL_THREADS: '1' } });
    assert.equal(threaded.code, 1);
    assert.equal(threaded.stdout, single.stdout);
    const doc = json<{ results: Result[] }>(threaded).results;
    assert.equal(doc.length, 210);
    assert.deepEqual(doc.filter((x) => !x.valid).map((x) => x.file), [join(dir, 'skill-0007', 'skill.yaml')]);
  });
});

describe('skillctl validate on the shipped manifests', () => {
  it('checks every skill bundle under manifests/ and leaves capability bundles (their own skill.md) to the registry', () => {
    const r = skillctl(['validate', '--json', 'manifests']);
    assert.equal(r.code, 0, r.stdout);
    const doc = json<{ results: { file: string; valid: boolean }[] }>(r).results;
    assert.ok(doc.length >= 11);
    assert.ok(doc.every((x) => x.valid && x.file.endsWith('skill.yaml')), JSON.stringify(doc.map((x) => x.file)));
  });
});
