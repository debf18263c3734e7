// A skills/list page carries its JSON text, joined from its entries' cached texts: the text must
// be exactly what JSON.stringify makes of the page, or a host would read another listing than
// the one the result holds.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { servedCatalogue, SETTLE_MS } from '../../../src/core/agent-skills/index.js';
import { skillsPage } from '../../../src/mcp/skills.js';
import { stringifyMessage, withRawJson } from '../../../src/mcp/wire/raw-json.js';
import { tempDir } from '../../helpers/tmp.js';

describe('stringifyMessage', () => {
  it('a result carrying its text is written with it; the same result without is JSON.stringify of the message', () => {
    const result = withRawJson({ a: 1 }, '{"a":1}');
    const message = { jsonrpc: '2.0', id: 'x"y', result } as JSONRPCMessage;
    assert.equal(stringifyMessage(message), '{"jsonrpc":"2.0","id":"x\\"y","result":{"a":1}}');
    assert.deepEqual(JSON.parse(stringifyMessage(message)), JSON.parse(JSON.stringify(message)));
    const plain = { jsonrpc: '2.0', id: 7, result: { a: 1 } } as JSONRPCMessage;
    assert.equal(stringifyMessage(plain), JSON.stringify(plain));
    const error = { jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'no' } } as JSONRPCMessage;
    assert.equal(stringifyMessage(error), JSON.stringify(error));
  });

  it('the text is invisible to JSON.stringify and to the keys of the result', () => {
    const result = withRawJson({ a: 1 }, '{"a":2}');
    assert.equal(JSON.stringify(result), '{"a":1}');
    assert.deepEqual(Object.keys(result), ['a']);
  });
});

describe('skillsPage', () => {
  it('its text is exactly JSON.stringify of the page, with and without a cursor, for frontmatter that needs escaping', async () => {
    const root = tempDir();
    for (const name of ['alpha', 'beta']) {
      mkdirSync(join(root, name, 'notes'), { recursive: true });
      writeFileSync(join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: "Quotes \\" and a tab\\t and é, line\\u2028sep. Use when testing."\nmetadata:\n  n: "1"\n---\n# ${name}\n`);
      writeFileSync(join(root, name, 'notes', 'a b%.md'), 'x\n');
    }
    const c = servedCatalogue([{ dir: root, label: 'skills' }], () => Date.now() + 10 * SETTLE_MS);
    const listed = await c.list();
    assert.deepEqual(listed.diagnostics, []);
    assert.equal(listed.skills.length, 2);
    for (const cursor of [undefined, 'abc.def']) {
      const page = skillsPage(listed.skills, cursor);
      const message = { jsonrpc: '2.0', id: 1, result: page } as JSONRPCMessage;
      assert.equal(stringifyMessage(message), `{"jsonrpc":"2.0","id":1,"result":${JSON.stringify(page)}}`);
    }
    // A later listing of the unchanged skills: the same entries, the same text.
    const again = skillsPage((await c.list()).skills, undefined);
    assert.equal(stringifyMessage({ jsonrpc: '2.0', id: 1, result: again } as JSONRPCMessage), `{"jsonrpc":"2.0","id":1,"result":${JSON.stringify(again)}}`);
  });
});
