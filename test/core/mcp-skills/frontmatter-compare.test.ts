import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareFrontmatter } from '../../../src/core/mcp-skills/frontmatter-compare.js';

describe('compareFrontmatter', () => {
  const fm = { name: 'x', description: 'd', metadata: { version: '1.0.0', author: 'a' } };
  it('finds nothing when every field is equal, whatever the key order', () => {
    assert.deepEqual(compareFrontmatter(fm, { metadata: { author: 'a', version: '1.0.0' }, description: 'd', name: 'x' }, 'f'), []);
  });
  it('reports each field that differs, is missing or is added, with its pointer', () => {
    const found = compareFrontmatter(fm, { name: 'x', description: 'other', metadata: { version: '1.0.0', author: 'a', extra: 'y' }, 'allowed-tools': 'Bash' }, 'f');
    assert.deepEqual(
      found.map((d) => [d.code, d.pointer]),
      [
        ['MCP_PULL_FRONTMATTER_MISMATCH', '/frontmatter/allowed-tools'],
        ['MCP_PULL_FRONTMATTER_MISMATCH', '/frontmatter/description'],
        ['MCP_PULL_FRONTMATTER_MISMATCH', '/frontmatter/metadata'],
      ],
    );
  });
  it('tells a number from a string and an array from an object', () => {
    assert.equal(compareFrontmatter({ name: 'x', v: 1 }, { name: 'x', v: '1' }, 'f').length, 1);
    assert.equal(compareFrontmatter({ name: 'x', v: [] }, { name: 'x', v: {} }, 'f').length, 1);
    assert.equal(compareFrontmatter({ name: 'x', v: null }, { name: 'x' }, 'f').length, 1);
  });
});
