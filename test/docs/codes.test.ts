import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CLI_CODES } from '../../src/cli/codes.js';
import { CODES } from '../../src/core/diagnostics.js';
import { ROOT } from '../helpers/paths.js';

describe('docs/codes.md', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'codes.md'), 'utf8');
  const headings = new Set([...doc.matchAll(/^### ([A-Z0-9_]+)$/gm)].map((m) => m[1]));
  // The library's catalogue and the codes only the command line reports.
  const codes: Record<string, unknown> = { ...CODES, ...CLI_CODES };
  for (const code of Object.keys(codes)) {
    it(`documents ${code}`, () => assert.ok(headings.has(code), `add a "### ${code}" section to docs/codes.md`));
  }
  it('documents no code that does not exist', () => {
    const stale = [...headings].filter((h) => !(h !== undefined && h in codes));
    assert.deepEqual(stale, []);
  });
});
