// Threat: hostile manifests and documents (a manifest, lock, policy, pack or payload built to crash, stall or mislead the parser).
// Attack suite (issue 20, item 9): documents within the size bound built to cost time or stack.
// Manifests, locks, payloads and capability files of 40,000 or 200,000 keys are refused with one
// finding (MANIFEST_TOO_MANY_KEYS, or the document's own code naming it); nesting 900 or 10,000
// levels deep is MANIFEST_TOO_DEEP, never a stack overflow; 120,000 findings are capped with a
// count of the rest; a contract's `^(a+)+$` and its `format: url` (ajv-formats' backtracking
// expression held a 120 KB payload 53 s) are matched in linear time, its `uniqueItems` decided
// in one pass (ajv compared every pair: 40,000 numbers, 19 s), its look-around and `$ref`
// cycles refused when it is loaded. Then documents built to mislead or exhaust the parser:
// YAML alias bombs (a manifest, a policy, a pack), nesting 10,000 deep, a 50 MB manifest, invalid
// UTF-8 and UTF-16, `__proto__` and `constructor` keys (a manifest, a lock, a payload), duplicate
// keys, a symlink loop. Each row: the input, the code, the exit status; the
// hang guard (helpers/hostile.ts) fails a row that does not answer, and is no speed figure (see
// bench/hostile-documents.sh for those).
import assert from 'node:assert/strict';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { answer, deepBlockYaml, deepCompactYaml, manyKeysYaml } from '../helpers/hostile.js';
import { fixture, ROOT } from '../helpers/paths.js';
import { makeProject, removeDir, tempDir } from '../helpers/project.js';

const MANIFEST = fixture('manifests', 'valid', 'node-entrypoint', 'skill.yaml');
const nothing = async (): Promise<void> => undefined;

interface Row {
  readonly what: string;
  readonly args: readonly string[];
  readonly code: string;
  readonly exit: number;
  readonly setup: (dir: string) => Promise<void>;
  /** Also true of the answer. */
  readonly check?: (stdout: string) => void;
}

const contract = (name: string, schema: Record<string, unknown>): string =>
  JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: `https://contracts.example/${name}.json`, contract: name, ...schema });

async function manifestWith(dir: string, name: string, extra: (text: string) => string): Promise<void> {
  await writeFile(join(dir, name), extra(await readFile(MANIFEST, 'utf8')));
}

async function contractDir(dir: string, name: string, schema: Record<string, unknown>): Promise<void> {
  await mkdir(join(dir, 'c'), { recursive: true });
  await writeFile(join(dir, 'c', `${name}.json`), contract(name, schema));
}

const rows: Row[] = [
  {
    what: 'a manifest of 40,000 keys (620 KB)',
    args: ['validate', 'm.yaml'],
    code: 'MANIFEST_TOO_MANY_KEYS',
    exit: 1,
    setup: (d) => manifestWith(d, 'm.yaml', (t) => manyKeysYaml(t, 40_000)),
  },
  {
    what: 'a manifest of 200,000 keys',
    args: ['validate', 'm.yaml'],
    code: 'MANIFEST_TOO_MANY_KEYS',
    exit: 1,
    setup: (d) => manifestWith(d, 'm.yaml', (t) => manyKeysYaml(t, 200_000, 'k')),
  },
  {
    what: 'a JSON manifest of 40,000 keys',
    args: ['validate', 'm.json'],
    code: 'MANIFEST_TOO_MANY_KEYS',
    exit: 1,
    setup: async (d) => writeFile(join(d, 'm.json'), JSON.stringify(Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`k${i}`, i])))),
  },
  {
    what: 'a manifest of 9,900 unknown keys (within the bound): 1,000 findings and a count of the rest',
    args: ['validate', 'm.yaml'],
    code: 'FINDINGS_TRUNCATED',
    exit: 1,
    setup: (d) => manifestWith(d, 'm.yaml', (t) => manyKeysYaml(t, 9_900)),
    // 1,000 findings listed (unknown fields, and the digest they change), the one that counts the
    // rest, and the one reason the entrypoint is not determinism-eligible (the schema's first error).
    check: (out) => assert.equal([...out.matchAll(/"code": "/g)].length, 1002),
  },
  {
    what: 'a manifest of 250,000 list entries',
    args: ['validate', 'm.yaml'],
    code: 'MANIFEST_TOO_MANY_NODES',
    exit: 1,
    setup: (d) => manifestWith(d, 'm.yaml', (t) => `${t}x-list:\n${'- 1\n'.repeat(250_000)}`),
  },
  {
    what: 'block-nested YAML 900 levels deep',
    args: ['validate', 'm.yaml'],
    code: 'MANIFEST_TOO_DEEP',
    exit: 1,
    setup: (d) => manifestWith(d, 'm.yaml', (t) => t + deepBlockYaml(900)),
  },
  {
    what: 'sequences nested 10,000 levels deep on one line',
    args: ['validate', 'm.yaml'],
    code: 'MANIFEST_TOO_DEEP',
    exit: 1,
    setup: (d) => manifestWith(d, 'm.yaml', (t) => t + deepCompactYaml(10_000)),
  },
  {
    what: 'block nesting 900 deep behind a line only the full parser reads',
    args: ['validate', 'm.yaml'],
    code: 'MANIFEST_TOO_DEEP',
    exit: 1,
    setup: (d) => manifestWith(d, 'm.yaml', (t) => `%YAML 1.2\n---\n${t}${deepBlockYaml(900)}`),
  },
  {
    what: 'a lock of 40,000 extra keys, verify-pins',
    args: ['verify-pins'],
    code: 'LOCK_UNREADABLE',
    exit: 2,
    setup: (d) => projectWithLock(d, (lock) => ({ ...lock, ...Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`x${i}`, 1])) })),
    check: (out) => assert.match(out, /more than 10000 keys/),
  },
  {
    what: 'a lock of 40,000 extra keys, pin',
    args: ['pin', '--all'],
    code: 'LOCK_UNREADABLE',
    exit: 2,
    setup: (d) => projectWithLock(d, (lock) => ({ ...lock, ...Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`x${i}`, 1])) })),
  },
  {
    what: 'a lock nested 900 levels deep, verify-pins',
    args: ['verify-pins'],
    code: 'LOCK_UNREADABLE',
    exit: 2,
    setup: (d) => projectWithLock(d, (lock) => ({ ...lock, x: JSON.parse('['.repeat(900) + ']'.repeat(900)) as unknown })),
    check: (out) => assert.match(out, /nesting exceeds 64 levels/),
  },
  {
    what: 'a payload of 40,000 unknown keys',
    args: ['validate', '--contract', 'ctr.output.v1', 'p.json'],
    code: 'PAYLOAD_NOT_JSON',
    exit: 4,
    setup: async (d) => writeFile(join(d, 'p.json'), JSON.stringify(Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`k${i}`, i])))),
    check: (out) => assert.match(out, /more than 10000 keys/),
  },
  {
    what: 'a payload of 9,999 unknown keys: findings capped',
    args: ['validate', '--contract', 'ctr.output.v1', 'p.json'],
    code: 'FINDINGS_TRUNCATED',
    exit: 4,
    setup: async (d) => writeFile(join(d, 'p.json'), JSON.stringify(Object.fromEntries(Array.from({ length: 9_999 }, (_, i) => [`k${i}`, i])))),
    check: (out) => assert.ok(out.includes('"code": "PAYLOAD_FIELD_UNKNOWN"')),
  },
  {
    what: 'a payload of 120,000 findings',
    args: ['validate', '--contracts', 'c', '--contract', 'acme.many.v1', 'p.json'],
    code: 'FINDINGS_TRUNCATED',
    exit: 4,
    setup: async (d) => {
      await contractDir(d, 'acme.many.v1', { type: 'object', properties: { items: { type: 'array', items: { type: 'string', maxLength: 1 } } } });
      await writeFile(join(d, 'p.json'), JSON.stringify({ items: Array.from({ length: 120_000 }, () => 'xx') }));
    },
    check: (out) => assert.match(out, /119000 more findings/),
  },
  {
    what: 'a payload nested 900 levels deep',
    args: ['validate', '--contract', 'ctr.output.v1', 'p.json'],
    code: 'PAYLOAD_NOT_JSON',
    exit: 4,
    setup: async (d) => writeFile(join(d, 'p.json'), `{"a":${'['.repeat(900)}${']'.repeat(900)}}`),
    check: (out) => assert.match(out, /nesting exceeds 64 levels/),
  },
  {
    what: 'a contract pattern ^(a+)+$ on a 41-byte payload',
    args: ['validate', '--contracts', 'c', '--contract', 'acme.redos.v1', 'p.json'],
    code: 'PAYLOAD_VALUE_INVALID',
    exit: 4,
    setup: async (d) => {
      await contractDir(d, 'acme.redos.v1', { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } });
      await writeFile(join(d, 'p.json'), JSON.stringify({ s: `${'a'.repeat(32)}!` }));
    },
  },
  {
    what: 'a contract pattern with look-ahead',
    args: ['contract', 'list', '--contracts', 'c'],
    code: 'CONTRACT_MALFORMED',
    exit: 1,
    setup: (d) => contractDir(d, 'acme.look.v1', { type: 'object', properties: { s: { type: 'string', pattern: '^(?=a)a+$' } } }),
    check: (out) => assert.match(out, /"pointer": "\/properties\/s\/pattern"/),
  },
  {
    what: 'a contract pattern with a back-reference',
    args: ['contract', 'list', '--contracts', 'c'],
    code: 'CONTRACT_MALFORMED',
    exit: 1,
    setup: (d) => contractDir(d, 'acme.backref.v1', { type: 'object', properties: { s: { type: 'string', pattern: '^(a)\\1$' } } }),
  },
  {
    what: 'a contract format url on http:// and 400,000 characters of ::',
    args: ['validate', '--contracts', 'c', '--contract', 'acme.url.v1', 'p.json'],
    code: 'PAYLOAD_VALUE_INVALID',
    exit: 4,
    setup: async (d) => {
      await contractDir(d, 'acme.url.v1', { type: 'object', properties: { u: { type: 'string', format: 'url' } } });
      await writeFile(join(d, 'p.json'), JSON.stringify({ u: `http://${'::'.repeat(200_000)} ` }));
    },
  },
  {
    what: 'a run input of 200,000 characters of :: where input_schema asks for a url',
    args: ['run', './s', '--input', 'p.json', '--no-audit'],
    code: 'RUN_INPUT_INVALID',
    exit: 2,
    setup: async (d) => {
      await cp(dirname(MANIFEST), join(d, 's'), { recursive: true });
      await manifestWith(join(d, 's'), 'skill.yaml', (t) => t.replace(/(\n {8}path:\n {10}type: string)/, '$1\n          format: url'));
      assert.equal(answer(['validate', '--fix', 's'], d).code, 0);
      await writeFile(join(d, 'p.json'), JSON.stringify({ path: `http://${'::'.repeat(100_000)} ` }));
    },
  },
  {
    what: 'a contract of two anyOf branches recursing at each level, on an array nested 40 deep (2^40 paths)',
    args: ['validate', '--contracts', 'c', '--contract', 'acme.paths.v1', 'p.json'],
    code: 'SCHEMA_CHECK_TOO_COSTLY',
    exit: 4,
    setup: async (d) => {
      const both = { type: 'array', items: { $ref: '#/$defs/x' } };
      await contractDir(d, 'acme.paths.v1', { type: 'object', properties: { a: { $ref: '#/$defs/x' } }, $defs: { x: { anyOf: [both, { ...both, minItems: 1 }] } } });
      await writeFile(join(d, 'p.json'), `{"a":${'['.repeat(40)}1${']'.repeat(40)}}`);
    },
  },
  {
    what: 'a run input nested 40 deep where input_schema has two anyOf branches recursing at each level',
    args: ['run', './s', '--input', 'p.json', '--no-audit'],
    code: 'SCHEMA_CHECK_TOO_COSTLY',
    exit: 2,
    setup: async (d) => {
      await cp(dirname(MANIFEST), join(d, 's'), { recursive: true });
      await manifestWith(join(d, 's'), 'skill.yaml', (t) =>
        t.replace(/(\n {8}path:\n {10}type: string)/, `\n        deep:\n          $ref: '#/$defs/x'$1`).replace(/(\n {4}input_schema:\n)/, `$1      $defs:\n        x:\n          anyOf:\n            - { type: array, items: { $ref: '#/$defs/x' } }\n            - { type: array, minItems: 1, items: { $ref: '#/$defs/x' } }\n`),
      );
      assert.equal(answer(['validate', '--fix', 's'], d).code, 0);
      await writeFile(join(d, 'p.json'), JSON.stringify({ path: 'x', deep: JSON.parse(`${'['.repeat(40)}1${']'.repeat(40)}`) as unknown }));
    },
  },
  {
    what: 'a contract uniqueItems on 190,000 numbers, the first two equal',
    args: ['validate', '--contracts', 'c', '--contract', 'acme.unique.v1', 'p.json'],
    code: 'PAYLOAD_DUPLICATE_ITEM',
    exit: 4,
    setup: async (d) => {
      await contractDir(d, 'acme.unique.v1', { type: 'object', properties: { xs: { type: 'array', uniqueItems: true } } });
      await writeFile(join(d, 'p.json'), JSON.stringify({ xs: [0, ...Array.from({ length: 190_000 }, (_, i) => i)] }));
    },
    check: (out) => assert.match(out, /"pointer": "\/xs\/1"/),
  },
  {
    what: 'a contract whose $refs form a cycle',
    args: ['validate', '--contracts', 'c', '--contract', 'acme.cycle.v1', 'p.json'],
    code: 'CONTRACT_REF_CYCLE',
    exit: 1,
    setup: async (d) => {
      await contractDir(d, 'acme.cycle.v1', { type: 'object', properties: { a: { $ref: '#/$defs/x' } }, $defs: { x: { $ref: '#/$defs/y' }, y: { allOf: [{ $ref: '#/$defs/x' }] } } });
      await writeFile(join(d, 'p.json'), '{"a":1}');
    },
    check: (out) => assert.doesNotMatch(out, /Maximum call stack/),
  },
  {
    what: 'a manifest input_schema pattern with look-behind',
    args: ['validate', 'm.yaml'],
    code: 'EMBEDDED_SCHEMA_INVALID',
    exit: 1,
    setup: (d) => manifestWith(d, 'm.yaml', (t) => t.replace(/(\n {8}path:\n {10}type: string)/, '$1\n          pattern: "(?<=a)b"')),
  },
  {
    what: 'a manifest input_schema $ref with a malformed %-escape (#/%)',
    args: ['validate', 'm.yaml'],
    code: 'EMBEDDED_SCHEMA_INVALID',
    exit: 1,
    setup: (d) => manifestWith(d, 'm.yaml', (t) => t.replace(/(\n {8}path:\n {10})type: string/, "$1$ref: '#/%'")),
  },
  {
    what: 'a manifest $ref into a shipped contract with a malformed %-escape',
    args: ['validate', 'm.yaml'],
    code: 'CONTRACT_REF_UNRESOLVED',
    exit: 1,
    setup: (d) => manifestWith(d, 'm.yaml', (t) => t.replace(/(\n {8}path:\n {10})type: string/, "$1$ref: 'https://unpkg.com/skillctl/schemas/contracts/eval.output.v1.schema.json#/properties/%'")),
  },
  {
    what: 'a capability args_schema $ref with a malformed %-escape (#/properties/%)',
    args: ['registry', 'validate', 'cap'],
    code: 'TOOL_SCHEMA_INVALID',
    exit: 1,
    setup: async (d) => {
      await cp(join(ROOT, 'manifests', 'capabilities', 'web'), join(d, 'cap'), { recursive: true });
      const tools = JSON.parse(await readFile(join(d, 'cap', 'tools.json'), 'utf8')) as { tools: { args_schema: Record<string, unknown> }[] };
      (tools.tools[0] as { args_schema: Record<string, unknown> }).args_schema.properties = { url: { $ref: '#/properties/%' } };
      await writeFile(join(d, 'cap', 'tools.json'), JSON.stringify(tools));
    },
  },
  {
    what: 'a capability tools.json of 40,000 keys',
    args: ['registry', 'validate', 'cap'],
    code: 'MANIFEST_TOO_MANY_KEYS',
    exit: 1,
    setup: async (d) => {
      await cp(join(ROOT, 'manifests', 'capabilities', 'web'), join(d, 'cap'), { recursive: true });
      const tools = JSON.parse(await readFile(join(d, 'cap', 'tools.json'), 'utf8')) as { tools: Record<string, unknown>[] };
      Object.assign(tools.tools[0] as Record<string, unknown>, Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`x${i}`, 1])));
      await writeFile(join(d, 'cap', 'tools.json'), JSON.stringify(tools));
    },
  },
  ...(
    [
      ['yaml-alias-bomb', 'a manifest that is a YAML alias bomb', 'MANIFEST_ALIAS_LIMIT'],
      ['nesting-10000-deep-flow', 'a manifest of flow sequences nested 10,000 deep', 'MANIFEST_TOO_DEEP'],
      ['nesting-10000-deep-json', 'a JSON manifest nested 10,000 deep', 'MANIFEST_TOO_DEEP'],
      ['invalid-utf8', 'a manifest of invalid UTF-8', 'MANIFEST_ENCODING'],
      ['utf16-bom', 'a manifest in UTF-16 with a byte-order mark', 'MANIFEST_ENCODING'],
      ['proto-key', 'a manifest with a __proto__ key', 'MANIFEST_FORBIDDEN_KEY'],
      ['constructor-key', 'a manifest with a constructor key', 'MANIFEST_FORBIDDEN_KEY'],
      ['yaml-duplicate-key', 'a manifest with a duplicate key in YAML', 'MANIFEST_DUPLICATE_KEY'],
      ['json-duplicate-key', 'a manifest with a duplicate key in JSON', 'MANIFEST_DUPLICATE_KEY'],
      ['symlink-loop', 'a bundle holding a symlink loop', 'BUNDLE_SYMLINK'],
    ] as const
  ).map(([name, what, code]): Row => ({ what: `${what} (fixture ${name})`, args: ['validate', fixture('manifests', 'invalid', name)], code, exit: 1, setup: nothing })),
  {
    what: 'a 50 MB manifest (refused unparsed)',
    args: ['validate', 'big'],
    code: 'MANIFEST_TOO_LARGE',
    exit: 1,
    setup: async (d) => {
      await mkdir(join(d, 'big'));
      await writeFile(join(d, 'big', 'skill.yaml'), 'skill_id: fixture.demo\n' + `x-padding: "${'a'.repeat(1000)}"\n`.repeat(50 * 1024));
    },
  },
  {
    what: 'a policy that is a YAML alias bomb',
    args: ['run', 'fs.read_text', '--policy', 'bomb.policy.yaml', '--input', '-', '--no-audit'],
    code: 'MANIFEST_ALIAS_LIMIT',
    exit: 2,
    setup: async (d) => {
      const level = (name: string, of: string): string => `${name}: &${name} [${Array<string>(9).fill(`*${of}`).join(',')}]\n`;
      await writeFile(join(d, 'bomb.policy.yaml'), `version: 1\na: &a [x,x,x,x,x,x,x,x,x]\n${['b', 'c', 'd', 'e', 'f', 'g'].map((n, i) => level(n, 'abcdef'[i] as string)).join('')}`);
    },
  },
  { what: 'a behaviour pack that is a YAML alias bomb', args: ['skill', '--packs', fixture('packs', 'operator', 'invalid', 'alias-bomb')], code: 'MANIFEST_ALIAS_LIMIT', exit: 1, setup: nothing },
  {
    what: 'a lock with a __proto__ key, verify-pins',
    args: ['verify-pins'],
    code: 'LOCK_UNREADABLE',
    exit: 2,
    setup: (d) => projectWithLock(d, (lock) => JSON.parse(`{"__proto__":{"polluted":true},${JSON.stringify(lock).slice(1)}`) as Record<string, unknown>),
  },
  ...[
    ['a __proto__ key', '{"result":"PASS","failure_reason":null,"confidence":0.5,"__proto__":{"polluted":true}}'],
    ['a duplicate key', '{"result":"PASS","result":"FAIL","failure_reason":null,"confidence":0.5}'],
    ['over 4 MiB', `{"result":"PASS","failure_reason":"${'x'.repeat(4 * 1024 * 1024)}","confidence":0.5}`],
  ].map(
    ([what, payload]): Row => ({
      what: `a payload with ${what as string}, refused before any rule`,
      args: ['validate', '--contract', 'eval.output', 'p.json'],
      code: 'PAYLOAD_NOT_JSON',
      exit: 4,
      setup: (d) => writeFile(join(d, 'p.json'), payload as string),
    }),
  ),
];

/** A pinned copy of the pins fixture in `dir`, its lock rewritten by `edit`. */
async function projectWithLock(dir: string, edit: (lock: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  const root = await makeProject();
  await cp(root, dir, { recursive: true });
  await removeDir(root);
  const pinned = answer(['pin', '--all'], dir);
  assert.equal(pinned.code, 0, pinned.stdout);
  const path = join(dir, 'pins', 'skills.lock.json');
  await writeFile(path, JSON.stringify(edit(JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>), null, 2) + '\n');
}

describe('hostile documents: one answer, at once, never a stack overflow', () => {
  let scratch: string;
  before(async () => {
    scratch = await tempDir('skillctl-hostile-docs-');
  });
  after(async () => removeDir(scratch));

  for (const row of rows) {
    it(`${row.what}: ${row.code}, exit ${row.exit}`, async () => {
      const dir = join(scratch, row.what.replace(/[^a-z0-9]+/gi, '-').slice(0, 60));
      await mkdir(dir, { recursive: true });
      await row.setup(dir);
      const r = answer(row.args, dir);
      assert.ok(r.codes.includes(row.code), `${row.code} expected, got ${r.codes.slice(0, 10).join(', ')}\n${r.stdout.slice(0, 2000)}${r.stderr}`);
      assert.equal(r.code, row.exit, r.stdout.slice(0, 2000) + r.stderr);
      assert.ok(!r.codes.includes('INTERNAL'), r.stdout.slice(0, 2000));
      assert.doesNotMatch(r.stdout, /Maximum call stack size exceeded/);
      assert.doesNotMatch(r.stdout + r.stderr, /\n\s+at .+\(.*:\d+:\d+\)/, 'no stack trace');
      row.check?.(r.stdout);
    });
  }
});
