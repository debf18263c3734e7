import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CODES } from '../../src/core/diagnostics.js';
import { ROOT } from '../helpers/paths.js';

describe('docs/codes.md', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'codes.md'), 'utf8');
  const headings = new Set([...doc.matchAll(/^### ([A-Z0-9_]+)$/gm)].map((m) => m[1]));
  for (const code of Object.keys(CODES)) {
    it(`documents ${code}`, () => assert.ok(headings.has(code), `add a "### ${code}" section to docs/codes.md`));
  }
  it('documents no code that does not exist', () => {
    const stale = [...headings].filter((h) => !(h !== undefined && h in CODES));
    assert.deepEqual(stale, []);
  });
});
