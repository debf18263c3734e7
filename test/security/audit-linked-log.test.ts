// Threat: a repository links the audit log every run appends to by default, so that any run, even a
// read-only built-in, appends its records to a file of the user's and cuts off that file's end.
// `skillctl run` and `mcp` append to `.skillctl/audit.jsonl` in the project. A cloned repository may
// hold it (or `.skillctl`) as a link (git checks links out as links) to a file outside the project:
// the log was opened through the link, two JSON records were appended to that file, and its last
// line, lacking a newline, was cut off as a torn record first (a file with no newline at all was
// emptied). The default log is opened only when no part of it below the project root is a link,
// its own name without following one: AUDIT_UNWRITABLE, exit 2, nothing run, nothing written;
// `--audit` names any file as the user means it.
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { attempt, scratch, treeState } from '../helpers/attack.js';

describe('a run whose default audit log the repository links to a file outside', () => {
  const sc = scratch('skillctl-audit-linked-');
  const victim = join(sc.outside, 'notes.txt');
  const input = join(sc.work, 'in.json');

  beforeEach(async () => {
    await rm(join(sc.work, '.skillctl'), { recursive: true, force: true });
    await rm(join(sc.outside, 'audit.jsonl'), { force: true });
    await writeFile(victim, 'first line\nlast line, no newline');
    await writeFile(join(sc.work, 'a.txt'), 'hi\n');
    await writeFile(input, JSON.stringify({ path: 'a.txt' }));
  });

  const links: readonly { readonly name: string; readonly plant: () => Promise<void> }[] = [
    {
      name: '.skillctl/audit.jsonl -> a file outside',
      plant: async () => {
        await mkdir(join(sc.work, '.skillctl'));
        await symlink('../../outside/notes.txt', join(sc.work, '.skillctl', 'audit.jsonl'));
      },
    },
    {
      name: '.skillctl -> a folder outside holding audit.jsonl',
      plant: async () => {
        await symlink('notes.txt', join(sc.outside, 'audit.jsonl'));
        await symlink('../outside', join(sc.work, '.skillctl'));
      },
    },
  ];

  for (const l of links) {
    it(`${l.name}: AUDIT_UNWRITABLE, exit 2, the file outside unchanged`, async () => {
      await l.plant();
      const before = await treeState(sc.outside);
      const r = await attempt(['run', 'fs.read_text', '--input', input], { cwd: sc.work });
      assert.deepEqual([r.exit, r.errors], [2, ['AUDIT_UNWRITABLE']], r.stdout + r.stderr);
      assert.equal(await readFile(victim, 'utf8'), 'first line\nlast line, no newline');
      assert.deepEqual(await treeState(sc.outside), before, 'nothing outside the project changed');
    });
  }

  it('mcp, whose every tool call appends to the same default log: AUDIT_UNWRITABLE at its start, exit 2, the file outside unchanged', async () => {
    await links[0]?.plant();
    const r = await attempt(['mcp'], { cwd: sc.work });
    assert.deepEqual([r.exit, r.errors], [2, ['AUDIT_UNWRITABLE']], r.stdout + r.stderr);
    assert.equal(await readFile(victim, 'utf8'), 'first line\nlast line, no newline');
  });

  it('--audit through the link is the user naming the file: appended', async () => {
    await links[0]?.plant();
    const r = await attempt(['run', 'fs.read_text', '--input', input, '--audit', join('.skillctl', 'audit.jsonl')], { cwd: sc.work });
    assert.deepEqual([r.exit, r.errors], [0, []], r.stdout + r.stderr);
    assert.match(await readFile(victim, 'utf8'), /^first line\n\{"audit_version".*\n\{"audit_version".*\n$/);
  });
});
