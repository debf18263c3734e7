// The shape bounds (depth, keys per mapping, nodes): every reader refuses what is over them, and
// the line scan that runs before the full parser never refuses what is within them. Its counts
// are lower bounds: set the limits to a document's exact figures and the scan must pass it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fg from 'fast-glob';
import { parseDocumentBytes, parseJsonStrict, readCleanJson } from '../../../src/core/manifest/index.js';
import { checkDataShape, DEFAULT_SHAPE_LIMITS, MANIFEST_MAX_KEYS, type ShapeLimits } from '../../../src/core/manifest/shape.js';
import { parseText } from '../../../src/core/manifest/yaml-document.js';
import { readPlainYaml } from '../../../src/core/manifest/yaml-fast.js';
import { scanYamlShape } from '../../../src/core/manifest/yaml-scan.js';
import { deepBlockYaml, deepCompactYaml, manyKeysYaml } from '../../helpers/hostile.js';
import { ROOT } from '../../helpers/paths.js';
import { yamlGenerator } from '../../helpers/yaml-gen.js';

/** The exact figures of parsed data, counted as checkDataShape counts them. */
function figures(data: unknown): ShapeLimits {
  let maxDepth = 0;
  let maxKeys = 0;
  let maxNodes = 0;
  const stack: [unknown, number][] = [[data, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number];
    maxNodes++;
    maxDepth = Math.max(maxDepth, d);
    if (v === null || typeof v !== 'object') continue;
    const children = Object.values(v);
    if (!Array.isArray(v)) {
      maxKeys = Math.max(maxKeys, children.length);
      maxNodes += children.length;
    }
    for (const c of children) stack.push([c, d + 1]);
  }
  return { maxDepth, maxKeys, maxNodes };
}

const codes = (text: string, format: 'yaml' | 'json' = 'yaml'): string[] => parseDocumentBytes(Buffer.from(text), format).diagnostics.map((d) => d.code);

describe('shape bounds', () => {
  it('the line scan passes every YAML document of the repository at its exact figures', () => {
    const files = fg.sync(['fixtures/**/*.{yaml,yml}', 'manifests/**/*.{yaml,yml}', 'docs/**/*.yaml'], { cwd: ROOT, absolute: true });
    let checked = 0;
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const doc = parseText(text, 'yaml');
      if (doc.data === undefined) continue;
      checked++;
      assert.equal(scanYamlShape(text, figures(doc.data), 'manifest'), undefined, f);
    }
    assert.ok(checked > 40, `${checked} documents`);
  });

  it('the line scan passes thousands of generated documents at their exact figures', () => {
    const next = yamlGenerator(0x5ca1e);
    let checked = 0;
    for (let i = 0; i < 3000; i++) {
      const text = next();
      const doc = parseText(text, 'yaml');
      if (doc.data === undefined) continue;
      checked++;
      assert.equal(scanYamlShape(text, figures(doc.data), 'manifest'), undefined, text);
    }
    assert.ok(checked > 500, `${checked} documents`);
  });

  it('refuses a mapping of more than 10,000 keys in every reader, YAML and JSON, block and flow', () => {
    const block = manyKeysYaml('a: 1', MANIFEST_MAX_KEYS);
    assert.equal(readPlainYaml(block), undefined);
    assert.deepEqual(codes(block), ['MANIFEST_TOO_MANY_KEYS']);
    assert.equal(scanYamlShape(block, DEFAULT_SHAPE_LIMITS, 'manifest')?.code, 'MANIFEST_TOO_MANY_KEYS');
    const flow = `a: {${Array.from({ length: MANIFEST_MAX_KEYS + 2 }, (_, i) => `k${i}: 1`).join(', ')}}\n`;
    assert.deepEqual(codes(flow), ['MANIFEST_TOO_MANY_KEYS']);
    const json = JSON.stringify(Object.fromEntries(Array.from({ length: MANIFEST_MAX_KEYS + 1 }, (_, i) => [`k${i}`, i])));
    assert.equal(parseJsonStrict(json, 64), undefined);
    assert.equal(readCleanJson(Buffer.from(json)), undefined);
    assert.deepEqual(codes(json, 'json'), ['MANIFEST_TOO_MANY_KEYS']);
    // At the bound itself, read as usual.
    const at = JSON.stringify(Object.fromEntries(Array.from({ length: MANIFEST_MAX_KEYS }, (_, i) => [`k${i}`, i])));
    assert.ok(readCleanJson(Buffer.from(at)) !== undefined);
  });

  it('refuses more than 200,000 keys and values, and counts keys the same way in every reader', () => {
    const list = `a:\n${'- 1\n'.repeat(200_001)}`;
    assert.deepEqual(codes(list), ['MANIFEST_TOO_MANY_NODES']);
    const json = `{"a":[${Array.from({ length: 200_001 }, () => '1').join(',')}]}`;
    assert.equal(readCleanJson(Buffer.from(json)), undefined);
    assert.deepEqual(codes(json, 'json'), ['MANIFEST_TOO_MANY_NODES']);
    assert.equal(checkDataShape({ a: [1, 2] }, { ...DEFAULT_SHAPE_LIMITS, maxNodes: 5 }, 'x'), undefined);
    assert.equal(checkDataShape({ a: [1, 2] }, { ...DEFAULT_SHAPE_LIMITS, maxNodes: 4 }, 'x')?.code, 'MANIFEST_TOO_MANY_NODES');
  });

  it('answers MANIFEST_TOO_DEEP for every depth past the bound, block, compact or flow, before the parser recurses', () => {
    for (const depth of [65, 70, 900, 5000]) {
      // Block nesting 5,000 deep is over the size bound (the indentation alone is 12 MB).
      if (depth <= 900) assert.deepEqual(codes(deepBlockYaml(depth)), ['MANIFEST_TOO_DEEP'], `block ${depth}`);
      assert.deepEqual(codes(deepCompactYaml(depth)), ['MANIFEST_TOO_DEEP'], `compact ${depth}`);
      assert.deepEqual(codes(`a: ${'['.repeat(depth)}${']'.repeat(depth)}\n`), ['MANIFEST_TOO_DEEP'], `flow ${depth}`);
    }
    assert.deepEqual(codes(deepCompactYaml(10_000)), ['MANIFEST_TOO_DEEP']);
    // Exactly at the bound: the root is depth 0, a value 64 levels down is allowed.
    assert.deepEqual(codes(deepBlockYaml(64)), []);
    assert.deepEqual(codes(deepBlockYaml(65)), ['MANIFEST_TOO_DEEP']);
  });

  it('finds a duplicate key among 10,000 in linear time, where it is', () => {
    const text = `${manyKeysYaml('a: 1', 9_000)}x_key_5: again\n`;
    const doc = parseDocumentBytes(Buffer.from(text), 'yaml');
    assert.deepEqual(doc.diagnostics.map((d) => [d.code, d.line]), [['MANIFEST_DUPLICATE_KEY', 9_002]]);
  });
});
