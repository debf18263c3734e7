import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BUILTIN_PACKS, BUILTIN_PROFILES, codePoints, PACK_MAX_CHARS, PACK_MIN_CHARS, renderPack } from '../../src/core/behaviour-packs/index.js';
import { json, skillctl, type CliRun } from '../helpers/cli.js';
import { BIN, fixture, ROOT } from '../helpers/paths.js';

const GOLDEN = fixture('packs', 'golden');
// SKILLCTL_UPDATE_GOLDEN=1 npm test rewrites the golden files after a deliberate pack change
// (which also needs a new skill_pack_version and new pins).
const UPDATE = process.env.SKILLCTL_UPDATE_GOLDEN === '1';

function ok(r: CliRun): CliRun {
  assert.equal(r.code, 0, `exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}

function golden(name: string, actual: string): void {
  const file = join(GOLDEN, name);
  if (UPDATE || !existsSync(file)) {
    assert.ok(UPDATE, `missing golden file ${file}; run with SKILLCTL_UPDATE_GOLDEN=1 to create it`);
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, actual);
  }
  assert.equal(actual, readFileSync(file, 'utf8'), `${name} differs from its golden file`);
}

interface ErrorDoc {
  error: { code: string; message: string; hint?: string };
  diagnostics: { code: string; pointer?: string; file?: string }[];
}

describe('skillctl skill: golden output', () => {
  for (const profile of BUILTIN_PROFILES) {
    it(`${profile}: whole, and cut to 700 characters`, () => {
      golden(`${profile}.txt`, ok(skillctl(['skill', '--profile', profile])).stdout);
      golden(`${profile}.max-chars-700.txt`, ok(skillctl(['skill', '--profile', profile, '--max-chars', '700'])).stdout);
    });
  }

  it('daily with --json', () => {
    golden('daily.max-chars-650.json', ok(skillctl(['skill', '--json', '--max-chars', '650'])).stdout);
  });
});

describe('skillctl skill --help', () => {
  it('states the clamp bounds the renderer uses', () => {
    assert.ok(skillctl(['skill', '--help']).stdout.replace(/\s+/g, ' ').includes(`clamped to ${PACK_MIN_CHARS}..${PACK_MAX_CHARS}`));
  });
});

describe('skillctl skill: determinism', () => {
  it('two separate processes print the same bytes, for every profile and several budgets', () => {
    for (const profile of BUILTIN_PROFILES) {
      for (const budget of ['0', '150', '777', '20000']) {
        for (const extra of [[], ['--json']]) {
          const args = ['skill', '--profile', profile, '--max-chars', budget, ...extra];
          const a = ok(skillctl(args));
          const b = ok(skillctl(args));
          assert.ok(Buffer.from(a.stdout).equals(Buffer.from(b.stdout)), args.join(' '));
        }
      }
    }
  });

  it('the fast path and the full command print the same bytes (--debug forces the full command)', () => {
    const cases = [
      ['skill'],
      ['skill', '-p', 'research'],
      ['skill', '--profile=teamlead', '--max-chars=640'],
      ['--json', 'skill', '--profile', 'strict', '--max-chars', '300'],
      ['skill', '--max-chars', '3', '--json'],
      ['skill', '--max-chars', '99999', '--quiet'],
      ['skill', '--no-color', '--max-chars', '0001000'],
    ];
    for (const args of cases) {
      const fast = ok(skillctl(args));
      const full = ok(skillctl([...args, '--debug']));
      assert.equal(fast.stdout, full.stdout, args.join(' '));
      assert.equal(fast.stderr, full.stderr, args.join(' '));
    }
  });

  it('a reader that closes the pipe early is its choice: exit 0, nothing on stderr', () => {
    for (const extra of [[], ['--debug']]) {
      const r = spawnSync('bash', ['-c', `set -o pipefail; "$0" "$1" skill --profile teamlead ${extra.join(' ')} | true`, process.execPath, BIN], { encoding: 'utf8' });
      assert.deepEqual([r.status, r.stderr], [0, ''], extra.join(' '));
    }
  });

  it('the fast path bundle stays small: no CLI framework, YAML parser or code catalogue', () => {
    const bundle = readFileSync(join(ROOT, 'dist', 'skill-fast.cjs'), 'utf8');
    for (const heavy of ['commander', 'LineCounter', 'MANIFEST_PARSE_ERROR', 'chalk']) assert.ok(!bundle.includes(heavy), heavy);
    assert.ok(bundle.length < 40_000, `${bundle.length} bytes`);
  });

  it('the whole text is printed without a trailing newline, so the budget holds for stdout too', () => {
    const r = ok(skillctl(['skill', '--profile', 'teamlead', '--max-chars', '700']));
    assert.ok(r.stdout.endsWith('\n...'));
    assert.ok(codePoints(r.stdout) <= 700);
  });
});

describe('skillctl skill: budgets', () => {
  it('--json gives the line-protocol envelope with the effective budget', () => {
    const human = ok(skillctl(['skill', '--profile', 'strict', '--max-chars', '700'])).stdout;
    const doc = json<Record<string, unknown>>(ok(skillctl(['skill', '--profile', 'strict', '--max-chars', '700', '--json'])));
    assert.deepEqual(Object.keys(doc), ['clamped', 'line_protocol', 'max_chars', 'max_chars_requested', 'profile', 'skill_pack_version', 'text', 'truncated']);
    assert.deepEqual(
      { ...doc, text: undefined },
      { clamped: false, line_protocol: true, max_chars: 700, max_chars_requested: 700, profile: 'strict', skill_pack_version: '0.1.0', text: undefined, truncated: true },
    );
    assert.equal(doc.text, human);
  });

  it('makes a clamp visible: the effective value in --json, a PACK_BUDGET_CLAMPED warning on stderr otherwise', () => {
    const low = json<{ max_chars: number; max_chars_requested: number; clamped: boolean; text: string }>(ok(skillctl(['skill', '--max-chars', '-7', '--json'])));
    assert.deepEqual([low.max_chars, low.max_chars_requested, low.clamped], [PACK_MIN_CHARS, -7, true]);
    assert.ok(low.text.startsWith('skill profile=daily version=0.1.0\n'));
    const high = json<{ max_chars: number; truncated: boolean }>(ok(skillctl(['skill', '--max-chars', '1000000', '--json'])));
    assert.deepEqual([high.max_chars, high.truncated], [PACK_MAX_CHARS, false]);
    const human = ok(skillctl(['skill', '--max-chars', '10']));
    assert.match(human.stderr, /PACK_BUDGET_CLAMPED/);
    assert.equal(human.stdout, renderPack('daily', PACK_MIN_CHARS).value?.text);
    assert.match(human.stdout, /^skill profile=daily version=0\.1\.0\n\[DAILY\]\n[^]+\n\.\.\.\n\[NEXT LOOP\]\n[^]+\n\.\.\.$/);
    assert.equal(ok(skillctl(['skill', '--max-chars', '10', '--quiet'])).stderr, '');
  });

  it('keeps the whole next loop at the smallest budgets, with the bytes of renderPack', () => {
    for (const pack of BUILTIN_PACKS) {
      const section = pack.sections.find((s) => s.name === 'NEXT LOOP');
      const loop = `\n[NEXT LOOP]\n${section?.lines.join('\n') ?? ''}\n`;
      for (const budget of [0, PACK_MIN_CHARS + 1]) {
        const r = ok(skillctl(['skill', '--profile', pack.profile, '--max-chars', String(budget), '--quiet']));
        assert.equal(r.stdout, renderPack(pack.profile, budget).value?.text, `${pack.profile} at ${budget}`);
        assert.ok(r.stdout.includes(loop), `${pack.profile} at ${budget}`);
      }
    }
  });

  it('counts code points for an operator pack with astral characters', () => {
    for (const n of [600, 650, 700, 800, 900]) {
      const r = ok(skillctl(['skill', '--packs', fixture('packs', 'operator', 'valid'), '--profile', 'acme-oncall', '--max-chars', String(n)]));
      assert.ok(codePoints(r.stdout) <= n, `${codePoints(r.stdout)} > ${n}`);
      assert.ok(r.stdout.startsWith('skill profile=acme-oncall version=1.2.0-rc.1\n'));
      assert.ok(r.stdout.includes('\n[NEXT LOOP]\n1. Read the newest alert.') && r.stdout.endsWith('\n...'), r.stdout);
    }
  });
});

describe('skillctl skill: requests on stdin', () => {
  it('the seed request gives the same bytes as the flags', () => {
    const viaStdin = ok(skillctl(['skill', '--stdin'], { input: '{"profile": "research", "max_chars": 700}' }));
    assert.equal(viaStdin.stdout, ok(skillctl(['skill', '--profile', 'research', '--max-chars', '700'])).stdout);
    assert.equal(ok(skillctl(['skill', '--stdin'], { input: '{}' })).stdout, ok(skillctl(['skill'])).stdout);
  });

  const bad: [string, string, string][] = [
    ['not an object', '["daily"]', ''],
    ['a string', '"daily"', ''],
    ['not JSON', 'profile=daily', ''],
    ['empty', '', ''],
    ['an unknown profile', '{"profile": "deep"}', '/profile'],
    ['a string max_chars', '{"max_chars": "2000"}', '/max_chars'],
    ['a fractional max_chars', '{"max_chars": 12.5}', '/max_chars'],
    ['an unknown field', '{"profile": "daily", "maxChars": 10}', '/maxChars'],
    ['a duplicate key', '{"profile": "daily", "profile": "strict"}', ''],
  ];
  for (const [label, input, pointer] of bad) {
    it(`${label}: INVALID_INPUT, exit 2, one structured JSON error`, () => {
      const r = skillctl(['skill', '--stdin', '--json'], { input });
      assert.equal(r.code, 2);
      const doc = json<ErrorDoc>(r);
      assert.equal(doc.error.code, 'INVALID_INPUT');
      assert.deepEqual(doc.diagnostics.map((d) => [d.code, d.pointer]), [['INVALID_INPUT', pointer]]);
      const human = skillctl(['skill', '--stdin'], { input });
      assert.equal(human.code, 2);
      assert.equal(human.stdout, '');
      assert.match(human.stderr, /INVALID_INPUT/);
    });
  }

  it('a request over 64 KiB is INVALID_INPUT', () => {
    const r = skillctl(['skill', '--stdin', '--json'], { input: `{"profile": "daily", "x": "${'y'.repeat(70_000)}"}` });
    assert.equal(r.code, 2);
    assert.equal(json<ErrorDoc>(r).error.code, 'INVALID_INPUT');
  });

  it('refuses --stdin together with --profile or --max-chars (USAGE, exit 2)', () => {
    const r = skillctl(['skill', '--stdin', '--profile', 'daily', '--json'], { input: '{}' });
    assert.equal(r.code, 2);
    assert.equal(json<ErrorDoc>(r).error.code, 'USAGE');
  });
});

describe('skillctl skill: errors from flags', () => {
  it('an unknown profile names the field and every allowed value', () => {
    const r = skillctl(['skill', '--profile', 'deep', '--json']);
    assert.equal(r.code, 2);
    const doc = json<ErrorDoc>(r);
    assert.equal(doc.error.code, 'INVALID_INPUT');
    assert.match(doc.error.message, /profile/);
    for (const p of BUILTIN_PROFILES) assert.match(doc.error.message, new RegExp(`\\b${p}\\b`));
  });

  // An empty --max-chars is a usage error like any empty option (test/cli/main.test.ts).
  for (const value of ['abc', '2.5', '1e3']) {
    it(`--max-chars ${JSON.stringify(value)} is INVALID_INPUT naming max_chars`, () => {
      const r = skillctl(['skill', `--max-chars=${value}`, '--json']);
      assert.equal(r.code, 2);
      const doc = json<ErrorDoc>(r);
      assert.deepEqual([doc.error.code, doc.diagnostics[0]?.pointer], ['INVALID_INPUT', '/max_chars']);
      assert.match(doc.error.message, /max_chars/);
    });
  }

  it('both problems at once are both reported', () => {
    const doc = json<ErrorDoc>(skillctl(['skill', '--profile', 'x', '--max-chars', 'y', '--json']));
    assert.deepEqual(doc.diagnostics.map((d) => d.pointer).sort(), ['/max_chars', '/profile']);
  });

  it('an extra argument is a usage error, not a pack', () => {
    const r = skillctl(['skill', 'daily']);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
  });

  it('--help lists every built-in profile', () => {
    const r = ok(skillctl(['skill', '--help']));
    for (const p of BUILTIN_PROFILES) assert.match(r.stdout, new RegExp(`\\b${p}\\b`));
  });
});

describe('skillctl skill --packs', () => {
  const valid = fixture('packs', 'operator', 'valid');

  it('adds the operator profiles and keeps the built-in ones', () => {
    const r = ok(skillctl(['skill', '--packs', valid, '--profile', 'release-captain']));
    assert.ok(r.stdout.startsWith('skill profile=release-captain version=0.3.0\n[RELEASE-CAPTAIN]\n'));
    assert.equal(ok(skillctl(['skill', '--packs', valid])).stdout, ok(skillctl(['skill'])).stdout);
    const unknown = json<ErrorDoc>(skillctl(['skill', '--packs', valid, '--profile', 'nope', '--json']));
    assert.match(unknown.error.message, /acme-oncall.*release-captain/);
  });

  for (const [name, code, exit] of [
    ['reserved', 'PACK_PROFILE_RESERVED', 1],
    ['section-order', 'PACK_SECTION_ORDER', 1],
    ['parse-error', 'MANIFEST_PARSE_ERROR', 1],
  ] as const) {
    it(`a malformed pack (${name}) is ${code} with exit ${exit}, never a crash`, () => {
      const dir = fixture('packs', 'operator', 'invalid', name);
      const r = skillctl(['skill', '--packs', dir, '--json']);
      assert.equal(r.code, exit);
      const doc = json<ErrorDoc>(r);
      assert.equal(doc.error.code, code);
      assert.ok(doc.diagnostics.every((d) => d.file?.startsWith(dir)));
      const human = skillctl(['skill', '--packs', dir]);
      assert.equal(human.code, exit);
      assert.match(human.stderr, new RegExp(code));
      assert.doesNotMatch(human.stderr, /internal error|at .*\.cjs/);
    });
  }

  it('a missing directory is INPUT_NOT_FOUND, exit 2', () => {
    const r = skillctl(['skill', '--packs', fixture('packs', 'no-such-dir'), '--json']);
    assert.equal(r.code, 2);
    assert.equal(json<ErrorDoc>(r).error.code, 'INPUT_NOT_FOUND');
  });
});
