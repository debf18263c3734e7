// `pull skill://` under the project's write lock for pulls, as separate processes: the test holds
// the lock as another skillctl would, so the pulls are let in at a moment the test picks.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { json, skillctlAsync, type CliRun } from '../helpers/cli.js';
import { SERVED, serverCommand } from '../helpers/pull-mcp.js';
import { tempDir } from '../helpers/tmp.js';

const PDF = 'skill://pdf-processing/SKILL.md';
const GIT = 'skill://git-workflow/SKILL.md';

/** A project whose pull lock this process holds (a live holder on this host, as another pull would be). */
function lockedProject(): { project: string; skills: string; release: () => void } {
  const project = realpathSync(tempDir());
  const lock = join(project, '.skillctl', '.mcp-origins.json.lck');
  mkdirSync(join(project, '.skillctl'));
  writeFileSync(lock, `${JSON.stringify({ pid: process.pid, hostname: hostname(), token: 'test' })}\n`);
  return { project, skills: join(project, '.agents', 'skills'), release: () => unlinkSync(lock) };
}

/** The scratch folder a pull writes `name` into, once it exists. */
function scratchOf(skills: string, name: string): string | undefined {
  const e = existsSync(skills) ? readdirSync(skills).find((f) => f.startsWith(`.${name}.pull-`)) : undefined;
  return e === undefined ? undefined : join(skills, e);
}

/** Polls for `what` while the pulls run; a pull that ends first did not wait for the lock. */
async function until(what: string, pulls: readonly Promise<CliRun>[], ready: () => boolean): Promise<void> {
  let ended: CliRun | undefined;
  for (const p of pulls) void p.then((r) => (ended ??= r));
  for (let i = 0; i < 600 && ended === undefined; i++) {
    if (ready()) return;
    await sleep(50);
  }
  assert.fail(ended !== undefined ? `a pull ended (exit ${ended.code}) before ${what} was seen: it did not wait for the lock` : `timed out waiting for ${what}`);
}

describe('skillctl pull skill:// and the project write lock', () => {
  it('two pulls of different skills at once: each waits for the lock, and both keep their origin records', async () => {
    const { project, skills, release } = lockedProject();
    const pulls = [PDF, GIT].map((uri) => skillctlAsync(['pull', uri, '--mcp', serverCommand(SERVED), '--json'], { cwd: project, timeoutMs: 90_000 }));
    await until('both scratch folders', pulls, () => scratchOf(skills, 'pdf-processing') !== undefined && scratchOf(skills, 'git-workflow') !== undefined);
    await sleep(200);
    assert.deepEqual(readdirSync(skills).filter((e) => !e.startsWith('.')), [], 'nothing is placed while another process holds the lock');
    release();
    for (const r of await Promise.all(pulls)) assert.equal(r.code, 0, r.stdout + r.stderr);
    const origins = JSON.parse(readFileSync(join(project, '.skillctl', 'mcp-origins.json'), 'utf8')) as { skills: Record<string, { uri: string }> };
    assert.deepEqual(Object.entries(origins.skills).map(([k, o]) => [k, o.uri]), [
      ['.agents/skills/git-workflow', GIT],
      ['.agents/skills/pdf-processing', PDF],
    ]);
    assert.deepEqual(readdirSync(skills).sort(), ['git-workflow', 'pdf-processing']);
  });

  it('a pull whose second rename fails leaves the first skill not placed: OUTPUT_UNWRITABLE, exit 2', async () => {
    const { project, skills, release } = lockedProject();
    const pull = skillctlAsync(['pull', PDF, GIT, '--mcp', serverCommand(SERVED), '--json'], { cwd: project, timeoutMs: 90_000 });
    // git-workflow is written last: once its one file is whole, the pull waits for the lock with
    // both scratch folders written. Taking that folder away makes its rename fail after the first.
    const size = statSync(join(SERVED, 'git-workflow', 'SKILL.md')).size;
    await until('the scratch folder of git-workflow', [pull], () => {
      const s = scratchOf(skills, 'git-workflow');
      return s !== undefined && existsSync(join(s, 'SKILL.md')) && statSync(join(s, 'SKILL.md')).size === size;
    });
    rmSync(scratchOf(skills, 'git-workflow') as string, { recursive: true });
    release();
    const r = await pull;
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.equal(json<{ error: { code: string } }>(r).error.code, 'OUTPUT_UNWRITABLE');
    assert.deepEqual(readdirSync(skills), [], 'pdf-processing was moved back out, and no scratch folder is left');
    assert.deepEqual(readdirSync(join(project, '.skillctl')), [], 'no origin record, and the lock released');
    // Nothing is left that a later pull would take for a local skill.
    const again = await skillctlAsync(['pull', PDF, '--mcp', serverCommand(SERVED), '--json'], { cwd: project, timeoutMs: 90_000 });
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.deepEqual(json<{ skills: { replaced: boolean }[] }>(again).skills.map((s) => s.replaced), [false]);
  });
});
