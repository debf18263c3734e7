import assert from 'node:assert/strict';
import { mkdtemp, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isSkillctlError } from '../../../src/core/errors.js';
import { checkPack, loadPack, loadPackDir, PACK_MAX_FILE_BYTES, PACK_MAX_FILES } from '../../../src/core/behaviour-packs/index.js';
import { fixture } from '../../helpers/paths.js';
import { packData } from '../../helpers/packs.js';

const invalid = (name: string): string => fixture('packs', 'operator', 'invalid', name);

async function codesOf(dir: string): Promise<[string, string | undefined][]> {
  const r = await loadPackDir(dir);
  assert.equal(r.ok, false);
  assert.equal(r.value, undefined);
  return r.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.pointer]);
}

describe('loadPackDir on the fixtures', () => {
  it('loads every valid operator pack, YAML and JSON, and ignores other and hidden files', async () => {
    const r = await loadPackDir(fixture('packs', 'operator', 'valid'), { label: 'packs' });
    assert.equal(r.ok, true);
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(
      r.value?.map((l) => [l.file, l.pack.profile, l.pack.skill_pack_version]),
      [
        ['packs/acme-oncall.yaml', 'acme-oncall', '1.2.0-rc.1'],
        ['packs/release-captain.json', 'release-captain', '0.3.0'],
      ],
    );
  });

  const cases: [string, [string, string | undefined][]][] = [
    ['profile-mismatch', [['PACK_PROFILE_MISMATCH', '/profile']]],
    ['reserved', [['PACK_PROFILE_RESERVED', '/profile']]],
    ['duplicate', [['PACK_PROFILE_DUPLICATE', '/profile']]],
    ['section-order', [['PACK_SECTION_ORDER', '/sections/0/name']]],
    ['next-loop-too-large', [['PACK_TOO_LARGE', '/sections/1']]],
    ['section-duplicate', [['PACK_SECTION_DUPLICATE', '/sections/3/name']]],
    [
      'section-missing',
      [
        ['PACK_SECTION_MISSING', '/sections'],
        ['PACK_SECTION_MISSING', '/sections'],
      ],
    ],
    ['line-break', [['SCHEMA_FORMAT', '/sections/0/lines/0']]],
    ['header-line', [['SCHEMA_FORMAT', '/sections/0/lines/0']]],
    [
      'forged-line',
      [
        ['PACK_LINE_FORGED', '/sections/0/lines/1'],
        ['PACK_LINE_FORGED', '/sections/0/lines/2'],
      ],
    ],
    [
      'unknown-field',
      [
        ['SCHEMA_REQUIRED', '/sections'],
        ['SCHEMA_UNKNOWN_FIELD', '/section'],
      ],
    ],
    ['bad-version', [['SCHEMA_FORMAT', '/skill_pack_version']]],
    ['parse-error', [['MANIFEST_PARSE_ERROR', undefined]]],
    ['duplicate-key', [['MANIFEST_DUPLICATE_KEY', undefined]]],
    ['proto-key', [['MANIFEST_FORBIDDEN_KEY', '/__proto__']]],
    ['alias-bomb', [['MANIFEST_ALIAS_LIMIT', undefined]]],
    ['not-mapping', [['MANIFEST_NOT_MAPPING', undefined]]],
  ];
  for (const [name, expected] of cases) {
    it(`reports ${expected.map((e) => e[0]).join(', ')} for ${name}`, async () => {
      const got = await codesOf(invalid(name));
      assert.deepEqual(got.sort(), [...expected].sort());
    });
  }

  it('gives every finding a file, and a line where the parser knows one', async () => {
    const r = await loadPackDir(invalid('section-order'), { label: 'ops-packs' });
    assert.deepEqual(
      r.diagnostics.map((d) => [d.file, d.line]),
      [[join('ops-packs', 'ops.yaml'), 5]],
    );
    const forged = await loadPackDir(invalid('forged-line'), { label: 'ops-packs' });
    assert.deepEqual(
      forged.diagnostics.map((d) => [d.code, d.file, d.line, d.pointer]),
      [
        ['PACK_LINE_FORGED', join('ops-packs', 'ops.yaml'), 8, '/sections/0/lines/1'],
        ['PACK_LINE_FORGED', join('ops-packs', 'ops.yaml'), 9, '/sections/0/lines/2'],
      ],
    );
  });
});

describe('loadPackDir on directories built by the test', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'skillctl-packs-'));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  async function fresh(name: string): Promise<string> {
    const d = join(dir, name);
    await mkdir(d);
    return d;
  }

  it('an empty directory is NO_INPUT', async () => {
    assert.deepEqual(await codesOf(await fresh('empty')), [['NO_INPUT', undefined]]);
  });

  it('a missing directory or a file is a SkillctlError, not a crash', async () => {
    await assert.rejects(loadPackDir(join(dir, 'nope')), (e) => isSkillctlError(e) && e.code === 'INPUT_NOT_FOUND');
    await writeFile(join(dir, 'file.yaml'), 'x');
    await assert.rejects(loadPackDir(join(dir, 'file.yaml')), (e) => isSkillctlError(e) && e.code === 'INPUT_UNREADABLE');
  });

  it('refuses a symbolic link instead of following it', async () => {
    const d = await fresh('links');
    await writeFile(join(dir, 'outside.yaml'), JSON.stringify(packData('outside')));
    await symlink(join(dir, 'outside.yaml'), join(d, 'outside.yaml'));
    assert.deepEqual(await codesOf(d), [['INPUT_UNREADABLE', undefined]]);
  });

  it('refuses a file over the size bound without parsing it', async () => {
    const d = await fresh('big');
    await writeFile(join(d, 'big.yaml'), `# ${'x'.repeat(PACK_MAX_FILE_BYTES)}\n`);
    assert.deepEqual(await codesOf(d), [['PACK_TOO_LARGE', undefined]]);
    assert.deepEqual(loadPack(Buffer.alloc(PACK_MAX_FILE_BYTES + 1, 0x20), 'yaml', { file: 'x.yaml' }).diagnostics.map((d) => d.code), ['PACK_TOO_LARGE']);
  });

  it('refuses a directory of more than PACK_MAX_FILES pack files without reading one', async () => {
    const d = await fresh('flood');
    // Not one of them is a pack: the count alone refuses the directory.
    for (let i = 0; i <= PACK_MAX_FILES; i++) await writeFile(join(d, `p${i}.yaml`), '{');
    const r = await loadPackDir(d, { label: 'flood' });
    assert.deepEqual(
      r.diagnostics.map((x) => [x.code, x.file, x.message]),
      [['PACK_TOO_LARGE', 'flood', `flood holds ${PACK_MAX_FILES + 1} pack files; the bound is ${PACK_MAX_FILES}`]],
    );
  });

  it('refuses a pack whose rendered text exceeds the largest budget', async () => {
    const d = await fresh('long');
    const data = packData('long');
    const line = 'y'.repeat(239);
    data.sections = [
      ...(data.sections as unknown[]),
      ...Array.from({ length: 3 }, (_, i) => ({ name: `MORE ${i}`, lines: Array.from({ length: 32 }, () => line) })),
    ];
    await writeFile(join(d, 'long.json'), JSON.stringify(data));
    assert.deepEqual(await codesOf(d), [['PACK_TOO_LARGE', '/sections']]);
  });

  it('honours an explicit reserved list', async () => {
    const d = await fresh('reserved');
    await writeFile(join(d, 'ops.json'), JSON.stringify(packData('ops')));
    assert.equal((await loadPackDir(d, { reserved: ['ops'] })).ok, false);
    assert.equal((await loadPackDir(d, { reserved: [] })).ok, true);
  });
});

describe('checkPack', () => {
  it('returns a copy that later changes to the input cannot reach', () => {
    const data = packData();
    const r = checkPack(data);
    assert.equal(r.ok, true);
    ((data.sections as { lines: string[] }[])[0] as { lines: string[] }).lines.push('injected\nline');
    assert.deepEqual(r.value?.sections[0]?.lines, ['Do the one thing.']);
  });

  it('drops editor-only fields such as $schema from the model', () => {
    const r = checkPack({ $schema: 'https://unpkg.com/skillctl/schemas/skill.pack.v1.schema.json', ...packData() });
    assert.equal(r.ok, true);
    assert.deepEqual(Object.keys(r.value ?? {}), ['profile', 'skill_pack_version', 'description', 'sections']);
  });

  for (const [label, mutate, code] of [
    ['a profile with capitals', (d: Record<string, unknown>) => (d.profile = 'Ops'), 'SCHEMA_FORMAT'],
    ['a profile over 32 characters', (d: Record<string, unknown>) => (d.profile = 'o'.repeat(33)), 'SCHEMA_CONSTRAINT'],
    ['a line with trailing space', (d: Record<string, unknown>) => ((d.sections as { lines: string[] }[])[1] as { lines: string[] }).lines.push('x '), 'SCHEMA_FORMAT'],
    ['a line with a tab', (d: Record<string, unknown>) => ((d.sections as { lines: string[] }[])[1] as { lines: string[] }).lines.push('a\tb'), 'SCHEMA_FORMAT'],
    ['a line with U+2028', (d: Record<string, unknown>) => ((d.sections as { lines: string[] }[])[1] as { lines: string[] }).lines.push('a\u2028b'), 'SCHEMA_FORMAT'],
    ['an empty section', (d: Record<string, unknown>) => ((d.sections as { lines: string[] }[])[1] as { lines: string[] }).lines.splice(0), 'SCHEMA_CONSTRAINT'],
    ['a lowercase section name', (d: Record<string, unknown>) => ((d.sections as { name: string }[])[1] as { name: string }).name = 'next loop', 'SCHEMA_FORMAT'],
  ] as const) {
    it(`refuses ${label} with ${code}`, () => {
      const data = packData();
      mutate(data);
      const r = checkPack(data);
      assert.equal(r.ok, false);
      assert.ok(r.diagnostics.some((d) => d.code === code), JSON.stringify(r.diagnostics));
    });
  }
});
