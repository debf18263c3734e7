// A project root inside another (a monorepo's package with its own lock and policy) keeps its
// own policy while the enclosing project's policy lets skills write elsewhere; once that policy
// lets skills write the package, `--policy` cannot name its policy either, and a policy kept in
// the enclosing root's .skillctl/ can. The refusal itself is in test/security/self-escalation.test.ts.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { json, skillctl } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

interface RunDoc {
  readonly status: string;
  readonly policy: { readonly source: string };
  readonly diagnostics: readonly { readonly code: string }[];
}

describe('run in a nested project root', () => {
  const root = realpathSync(tempDir('skillctl-nested-root-'));
  const pkg = join(root, 'packages', 'a');

  before(async () => {
    await mkdir(join(root, '.git'), { recursive: true });
    await mkdir(join(pkg, '.git'), { recursive: true });
    await mkdir(join(root, 'out'));
    await writeFile(join(pkg, 'notes.txt'), 'package\n');
    await writeFile(join(pkg, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n');
  });

  const readNotes = (policy?: string) =>
    skillctl(['run', 'fs.read_text', '--input', '-', '--json', '--no-audit', ...(policy !== undefined ? ['--policy', policy] : [])], { cwd: pkg, input: JSON.stringify({ path: 'notes.txt' }) });

  it("obeys the package's policy when the enclosing policy lets skills write elsewhere only", async () => {
    await writeFile(join(root, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n  fs.write: [out]\n');
    const r = readNotes();
    const doc = json<RunDoc>(r);
    assert.deepEqual([r.code, doc.status, doc.policy.source], [0, 'ok', join(pkg, 'skillctl.policy.yaml')], r.stdout);
  });

  it('refuses it once the enclosing policy lets skills write the package (exit 2), named with --policy too; a copy in the root\'s .skillctl/ governs', async () => {
    await writeFile(join(root, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n  fs.write: [packages]\n');
    const refused = readNotes();
    assert.deepEqual([refused.code, json<RunDoc>(refused).status, json<RunDoc>(refused).diagnostics.map((d) => d.code)], [2, 'policy_invalid', ['POLICY_ROOT_WRITABLE']], refused.stdout);
    const named = readNotes('skillctl.policy.yaml');
    assert.deepEqual([named.code, json<RunDoc>(named).status, json<RunDoc>(named).diagnostics.map((d) => d.code)], [2, 'policy_invalid', ['POLICY_FILE_WRITABLE']], named.stdout);
    await mkdir(join(root, '.skillctl'), { recursive: true });
    // Its relative paths name the project that holds .skillctl/, not .skillctl/ itself.
    await writeFile(join(root, '.skillctl', 'package-a.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [packages/a]\n');
    const held = readNotes(join(root, '.skillctl', 'package-a.policy.yaml'));
    assert.deepEqual([held.code, json<RunDoc>(held).status, json<RunDoc>(held).policy.source], [0, 'ok', join(root, '.skillctl', 'package-a.policy.yaml')], held.stdout);
  });
});
