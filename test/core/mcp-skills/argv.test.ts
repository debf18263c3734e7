import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitCommand } from '../../../src/core/mcp-skills/argv.js';

describe('splitCommand', () => {
  const cases: [string, string[]][] = [
    ['npx -y acme-server', ['npx', '-y', 'acme-server']],
    ["node 'my server.js' --dir  \"a b\"", ['node', 'my server.js', '--dir', 'a b']],
    ['echo $HOME ~ *.md $(rm -rf /) `id` ; ls | cat && x', ['echo', '$HOME', '~', '*.md', '$(rm', '-rf', '/)', '`id`', ';', 'ls', '|', 'cat', '&&', 'x']],
    ['a\\ b "c\\"d" \'e\\f\'', ['a b', 'c"d', 'e\\f']],
    ["x ''", ['x', '']],
  ];
  for (const [line, argv] of cases) it(`splits ${line} without a shell`, () => assert.deepEqual(splitCommand(line), { argv }));
  for (const bad of ['', '   ', "node 'open", 'node "open', 'node \\']) it(`refuses ${JSON.stringify(bad)}`, () => assert.ok('problem' in splitCommand(bad)));
});
