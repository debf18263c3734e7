// The quick YAML reader never disagrees with the full parser: on every document it accepts, the
// full parser has no finding and yields the same data; everything else goes to the full parser,
// so findings and their positions are those of the full parser.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fg from 'fast-glob';
import { parseDocumentBytes } from '../../../src/core/manifest/index.js';
import { parseText } from '../../../src/core/manifest/yaml-document.js';
import { readPlainYaml } from '../../../src/core/manifest/yaml-fast.js';
import { DEFAULT_SHAPE_LIMITS } from '../../../src/core/manifest/shape.js';
import { yamlGenerator } from '../../helpers/yaml-gen.js';

const DEPTH = 64;

/** Fails unless the full parser agrees with an accepted document. */
function agrees(text: string): boolean {
  const fast = readPlainYaml(text, { ...DEFAULT_SHAPE_LIMITS, maxDepth: DEPTH });
  if (fast === undefined) return false;
  const full = parseText(text, 'yaml');
  assert.deepEqual(full.diagnostics, [], `the full parser has findings the quick reader missed:\n${text}`);
  assert.deepEqual(fast, full.data, `the readers disagree on:\n${text}`);
  return true;
}

const shipped = fg
  .sync(['manifests/**/skill.yaml', 'fixtures/manifests/valid/**/skill.yaml', 'fixtures/registry/**/*.yaml', 'fixtures/packs/**/*.yaml'], { dot: false })
  .sort();

describe('quick YAML reader', () => {
  it('reads every shipped manifest and valid fixture, with the data of the full parser', () => {
    const manifests = shipped.filter((f) => f.endsWith('skill.yaml'));
    assert.ok(manifests.length >= 20, `found ${manifests.length} manifests`);
    for (const f of manifests) assert.ok(agrees(readFileSync(f, 'utf8')), `${f} took the full parser`);
  });

  it('resolves plain scalars by the YAML 1.2 core schema, as the full parser does', () => {
    const scalars = [
      '1', '-0', '+12', '007', '1_000', '0o17', '0o8', '0x1F', '0x', '0b101', '.5', '1.', '-1.5', '1e3', '1E-3', '.5e2', '1.e2', 'e3',
      '9007199254740991', '9007199254740993', '1e400', '.inf', '-.Inf', '+.INF', '.nan', '.NaN', 'nan', 'inf',
      'true', 'True', 'TRUE', 'tRUE', 'false', 'yes', 'no', 'on', 'off', 'y', 'n',
      '~', 'null', 'Null', 'NULL', 'nULL', '', '2001-12-14', '12:30:45', '1:2', '<<', '=', '-', '--', 'a b', 'é', '0.0.1',
    ];
    let accepted = 0;
    for (const s of scalars) {
      const text = `k: ${s}\nlist: [${s === '' ? 'x' : s}]\n`;
      if (agrees(text)) accepted++;
    }
    assert.ok(accepted >= scalars.length - 12, `only ${accepted} of ${scalars.length} read quickly`);
    assert.deepEqual(readPlainYaml('a: 0o17\nb: 0x1F\nc: +12\nd: 1_000\ne: 1.\nf: ~\ng: True\n', { ...DEFAULT_SHAPE_LIMITS, maxDepth: DEPTH }), {
      a: 15,
      b: 31,
      c: 12,
      d: '1_000',
      e: 1,
      f: null,
      g: true,
    });
  });

  it('leaves to the full parser every document it could read differently or that has a finding', () => {
    const cases: [string, string | undefined][] = [
      ['a: &x 1\nb: *x\n', undefined],
      ['a: !!str 1\n', undefined],
      ['a: !custom 1\n', 'MANIFEST_VALUE_NOT_JSON'],
      ['%YAML 1.2\n---\na: 1\n', undefined],
      ['a: 1\n---\nb: 2\n', 'MANIFEST_PARSE_ERROR'],
      ['1: a\n', 'MANIFEST_VALUE_NOT_JSON'],
      ['true: a\n', 'MANIFEST_VALUE_NOT_JSON'],
      ['? [a]\n: b\n', 'MANIFEST_VALUE_NOT_JSON'],
      ['a: 1\na: 2\n', 'MANIFEST_DUPLICATE_KEY'],
      ['__proto__: {x: 1}\n', 'MANIFEST_FORBIDDEN_KEY'],
      ['constructor: 1\n', 'MANIFEST_FORBIDDEN_KEY'],
      ['a: 9007199254740993\n', 'MANIFEST_VALUE_NOT_JSON'],
      ['a: .inf\n', 'MANIFEST_VALUE_NOT_JSON'],
      ['a:\tb\n', undefined],
      [`a: ${'x'.repeat(1200)}\n`, undefined],
      ['a: [1,\n  2]\n', undefined],
      ['a: {b: 1\n}\n', undefined],
      ['', 'MANIFEST_NOT_MAPPING'],
      ['- a\n', 'MANIFEST_NOT_MAPPING'],
      ['just a string\n', 'MANIFEST_NOT_MAPPING'],
      ['a: [1, 2\n', 'MANIFEST_PARSE_ERROR'],
      [`a: ${'['.repeat(70)}${']'.repeat(70)}\n`, 'MANIFEST_TOO_DEEP'],
    ];
    for (const [text, code] of cases) {
      assert.equal(readPlainYaml(text, { ...DEFAULT_SHAPE_LIMITS, maxDepth: DEPTH }), undefined, JSON.stringify(text));
      const codes: string[] = parseDocumentBytes(Buffer.from(text), 'yaml').diagnostics.map((d) => d.code);
      if (code !== undefined) assert.ok(codes.includes(code), `${JSON.stringify(text)}: ${codes.join(', ')}`);
    }
  });

  it('builds positions with the full parser, only when a finding needs one', () => {
    const doc = parseDocumentBytes(Buffer.from('a:\n  b: 1\nc: [x, y]\n'), 'yaml');
    assert.deepEqual(doc.diagnostics, []);
    assert.deepEqual(doc.data, { a: { b: 1 }, c: ['x', 'y'] });
    assert.deepEqual(doc.locate('/a/b'), { line: 2, column: 6 });
    assert.deepEqual(doc.locate('/c/1'), { line: 3, column: 8 });
    assert.deepEqual(doc.scalarRange('/a/b'), [8, 9]);
  });

  it('agrees with the full parser on thousands of mutated manifests', () => {
    // A fixed generator, so a failure reproduces.
    let seed = 0x2545f491;
    const rand = (n: number): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    const pieces = [':', ': ', '-', '- ', '#', ' #', '[', ']', '{', '}', ',', '"', "'", '\\', '|', '>', '|-', '>+', '?', '&a', '*a', '!', '%', '@', '`', '\n', '\n  ', '  ', '---', '...', '\t', '\r\n', 'é', '\u2028', '\u0085', '\u0007', '0x1', '1e9', 'true', '~', '<<'];
    const bases = shipped.slice(0, 40).map((f) => readFileSync(f, 'utf8'));
    let accepted = 0;
    const runs = 4000;
    for (let i = 0; i < runs; i++) {
      let text = bases[rand(bases.length)] as string;
      for (let m = 1 + rand(3); m > 0; m--) {
        const at = rand(text.length + 1);
        const op = rand(5);
        if (op === 0) text = text.slice(0, at) + text.slice(at + 1 + rand(4));
        else if (op === 1 || op === 2) text = text.slice(0, at) + (pieces[rand(pieces.length)] as string) + text.slice(at);
        else if (op === 3) {
          const lines = text.split('\n');
          const l = rand(lines.length);
          lines.splice(l, 0, lines[rand(lines.length)] as string);
          text = lines.join('\n');
        } else {
          const lines = text.split('\n');
          const l = rand(lines.length);
          lines[l] = ' '.repeat(rand(3)) + (lines[l] as string).trimStart();
          text = lines.join('\n');
        }
      }
      if (agrees(text)) accepted++;
    }
    // Most mutants stay plain YAML; the property is only worth something if many were accepted.
    assert.ok(accepted > runs / 5, `only ${accepted} of ${runs} mutants read quickly`);
  });

  it('agrees with the full parser on thousands of generated documents in every scalar style', () => {
    const next = yamlGenerator(0x5eed);
    let accepted = 0;
    const runs = 3000;
    for (let i = 0; i < runs; i++) if (agrees(next())) accepted++;
    assert.ok(accepted > runs / 5, `only ${accepted} of ${runs} documents read quickly`);
  });
});
