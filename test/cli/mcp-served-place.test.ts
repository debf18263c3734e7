// `skillctl mcp --registry DIR` and `--skills DIR` serve folders of one's own: the server's runs
// hold them, a run started elsewhere does not. mcp warns at start (SERVED_FOLDER_WRITABLE) when a
// project's policy lets skills write into one, and says nothing for the project's own
// .skillctl/registry and skill roots, which every run of the project holds.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { skillctl } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

describe('mcp --registry DIR and --skills DIR where a skill of the project may write', () => {
  const proj = realpathSync(tempDir('skillctl-served-place-'));
  // stdin at its end: the server starts, says what it serves, and stops.
  const mcp = (...args: string[]) => skillctl(['mcp', ...args], { cwd: proj, input: '' });
  const codes = (stderr: string): string[] => [...stderr.matchAll(/warning\s+([A-Z_]+)/g)].map((m) => m[1] as string);

  before(async () => {
    await mkdir(join(proj, '.git'), { recursive: true });
    for (const dir of ['shared/reg', 'shared/sk', 'skills/generated', '.skillctl/registry']) await mkdir(join(proj, dir), { recursive: true });
    await writeFile(join(proj, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n  fs.write: [shared, skills/generated]\n');
  });

  it('warns of each served folder a grant reaches into, naming it, and serves them (exit 0)', () => {
    const r = mcp('--registry', 'shared/reg', '--skills', 'shared/sk');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(codes(r.stderr), ['SERVED_FOLDER_WRITABLE', 'SERVED_FOLDER_WRITABLE'], r.stderr);
    assert.match(r.stderr, new RegExp(`the registry ${join(proj, 'shared', 'reg')} and ${join(proj, 'shared')}, which the policy of the project`));
    assert.match(r.stderr, new RegExp(`the skills folder ${join(proj, 'shared', 'sk')} and ${join(proj, 'shared')}`));
    assert.match(r.stderr, /serving shared\/reg \(--registry\)/);
  });

  it("says nothing for the project's own registry and skill roots (a grant inside skills/ included)", () => {
    const r = mcp('--registry', '.skillctl/registry', '--skills', 'skills');
    assert.deepEqual([r.code, codes(r.stderr)], [0, []], r.stderr);
  });
});
