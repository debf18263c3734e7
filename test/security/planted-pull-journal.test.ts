// Threat: a pull request commits `.skillctl/mcp-pull-journal.json`, the note a `pull skill://` killed
// between its renames leaves for the next holder of the write lock, naming as "the folder the
// pull wrote" a folder outside the project whose files it knows (a published skill in
// `~/.agents/skills`, a checkout of a public repository beside the project): with its origin
// records not written, the next `pull` or `pin` in that checkout "undid" the pull, moving the
// folder to a scratch name and removing it (until the stop of 2026-11-30). The journal names
// each folder the pull wrote by its identity (device, inode, birth time) as well as its files; a
// folder that is not that one is never moved, the pull goes on, and the victim is intact.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sha256 } from '../../src/core/digest/index.js';
import { filesDigest, PULL_JOURNAL } from '../../src/core/mcp-skills/pull-journal.js';
import { json, skillctl } from '../helpers/cli.js';
import { SERVED, serverCommand } from '../helpers/pull-mcp.js';
import { tempDir } from '../helpers/tmp.js';

describe('threat: a committed pull journal that names a folder outside the project', () => {
  it('the next pull skill:// "undoes" it: the outside folder of known files is left in place, the pull is placed', () => {
    const project = realpathSync(tempDir('skillctl-planted-journal-'));
    // The victim: a folder outside the project whose files the attacker knows (path, size, digest).
    const outside = realpathSync(tempDir('skillctl-victim-'));
    const victim = join(outside, 'deploy');
    mkdirSync(victim);
    const text = '---\nname: deploy\ndescription: The team deploy skill.\n---\n';
    writeFileSync(join(victim, 'SKILL.md'), text);
    const files = filesDigest([{ path: 'SKILL.md', size: Buffer.byteLength(text), digest: sha256(Buffer.from(text)) }]);
    // What every field a journal of this version holds looks like, as a pull would write it.
    const scratch = join(outside, `.deploy.pull-1-${'a'.repeat(12)}-${'b'.repeat(12)}`);
    const move = { scratch, dir: victim, files, folder: '1:1:0' };
    mkdirSync(join(project, '.skillctl'));
    writeFileSync(join(project, ...PULL_JOURNAL.split('/')), JSON.stringify({ version: 1, holder: { pid: 1, hostname: 'ci' }, origins: sha256(Buffer.from('none')), moves: [move] }));
    const r = skillctl(['pull', 'skill://pdf-processing/SKILL.md', '--mcp', serverCommand(SERVED), '--json'], { cwd: project });
    assert.equal(readFileSync(join(victim, 'SKILL.md'), 'utf8'), text, `the outside folder was removed: ${r.stdout}${r.stderr}`);
    assert.equal(existsSync(scratch), false);
    const doc = json<{ ok: boolean; diagnostics: { code: string; severity: string }[] }>(r);
    assert.deepEqual([r.code, doc.ok], [0, true], r.stdout + r.stderr);
    assert.equal(existsSync(join(project, '.agents', 'skills', 'pdf-processing', 'SKILL.md')), true);
  });
});
