// What processes killed at the wrong moment leave in .skillctl/ (src/core/mcp-skills/leftovers.ts),
// removed by the next holder of the pulls' lock: temporary files of its atomic writes, a stale lock
// set aside, and a dead pull's note with the scratch folders it names, in whatever folder that pull
// wrote into. Only what a dead writer left: a live process's, this process's, and another host's
// younger than the lock's takeover age stay.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { hostTag } from '../../../src/core/fs/index.js';
import { placeSkills, type PlaceResult } from '../../../src/core/mcp-skills/index.js';
import { ORIGINS_LOCK } from '../../../src/core/mcp-skills/origins.js';
import { scratchName } from '../../../src/core/mcp-skills/scratch.js';
import { testFileLock } from '../../helpers/file-lock.js';
import { ROOT } from '../../helpers/paths.js';
import { pulledSkill } from '../../helpers/pulled-skill.js';
import { tempDir } from '../../helpers/tmp.js';

const KILLED_PULL = join(ROOT, 'dist', 'test', 'helpers', 'killed-pull.js');
const TAG = '0123456789ab';

function project(): { root: string; out: string; skillctl: string } {
  const root = realpathSync(tempDir('skillctl-leftovers-'));
  mkdirSync(join(root, '.skillctl'));
  return { root, out: join(root, 'out'), skillctl: join(root, '.skillctl') };
}

const pull = (root: string, out: string, name: string): Promise<PlaceResult> =>
  placeSkills([pulledSkill(name, `${name}.`)], { root, outDir: out, server: { command: ['srv'] }, localFolders: async () => [], fileLock: testFileLock() });

/** The id of a process that has exited. */
const deadPid = (): number => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);

/** Sets `path`'s times `ms` in the past. */
function age(path: string, ms: number): void {
  const t = new Date(Date.now() - ms);
  utimesSync(path, t, t);
}

const HERE = hostTag(testFileLock().hostname);
const ELSEWHERE = hostTag(`${testFileLock().hostname}-other`);
// testFileLock's takeover age.
const STALE_MS = testFileLock().staleMs;

describe('the holder of the pulls\' lock sweeps .skillctl/', () => {
  it('temporary files of a dead writer of this host, and old ones of another host or none, are removed; the rest stay', async () => {
    const p = project();
    const live = spawn('sleep', ['30']);
    try {
      const dead = deadPid();
      const names = {
        dead: `.mcp-origins.json.${dead}-${HERE}.aaaaaaaaaaaa.tmp`,
        deadJournal: `.mcp-pull-journal.json.${dead}-${HERE}.bbbbbbbbbbbb.tmp`,
        live: `.mcp-origins.json.${live.pid as number}-${HERE}.cccccccccccc.tmp`,
        mine: `.mcp-origins.json.${process.pid}-${HERE}.dddddddddddd.tmp`,
        elsewhere: `.mcp-origins.json.${dead}-${ELSEWHERE}.eeeeeeeeeeee.tmp`,
        elsewhereOld: `.mcp-origins.json.${dead}-${ELSEWHERE}.ffffffffffff.tmp`,
        // Written before temporary names carried a host: a pid alone proves nothing on a shared folder.
        unnamed: `.mcp-origins.json.${dead}.abcdefabcdef.tmp`,
        unnamedOld: `.mcp-pull-journal.json.${dead}.abcdefabcdef.tmp`,
        // Not this code's: another file's temporary file, and a lookalike.
        other: `.audit.jsonl.${dead}-${HERE}.aaaaaaaaaaaa.tmp`,
        lookalike: `.mcp-origins.json.${dead}-${HERE}.tmp`,
        aside: `${ORIGINS_LOCK.slice('.skillctl/'.length)}.stale.aaaaaaaaaaaa`,
        asideOld: `${ORIGINS_LOCK.slice('.skillctl/'.length)}.stale.bbbbbbbbbbbb`,
      };
      for (const n of Object.values(names)) writeFileSync(join(p.skillctl, n), '{"half": ');
      for (const n of [names.elsewhereOld, names.unnamedOld, names.asideOld]) age(join(p.skillctl, n), STALE_MS + 60_000);
      // A directory under a name of ours was not made by this code.
      const dir = `.mcp-origins.json.${dead}-${HERE}.999999999999.tmp`;
      mkdirSync(join(p.skillctl, dir));
      const r = await pull(p.root, p.out, 'a');
      assert.ok(r.ok, JSON.stringify(r.diagnostics));
      const gone = [names.dead, names.deadJournal, names.elsewhereOld, names.unnamedOld, names.asideOld];
      assert.deepEqual(
        readdirSync(p.skillctl).sort(),
        [...Object.values(names).filter((n) => !gone.includes(n)), dir, 'mcp-origins.json'].sort(),
      );
    } finally {
      live.kill();
    }
  });

  it('a pull killed while it waited for the lock: its scratch folder is removed by a pull into another folder', async () => {
    const p = project();
    // This process holds the lock, alive: the child writes its note and scratch folder, then waits.
    const lock = join(p.root, ...ORIGINS_LOCK.split('/'));
    writeFileSync(lock, `${JSON.stringify({ pid: process.pid, hostname: testFileLock().hostname, token: 'test' })}\n`);
    const first = join(p.root, 'first');
    const child = spawn(process.execPath, [KILLED_PULL, p.root, first, '0', 'a:A.'], { stdio: 'ignore' });
    const exited = once(child, 'exit');
    const written = (): boolean => existsSync(first) && readdirSync(first).some((e) => readdirSync(join(first, e)).length === 2);
    for (let i = 0; i < 600 && !written(); i++) await sleep(50);
    assert.ok(written(), 'the child wrote its scratch folder');
    child.kill('SIGKILL');
    assert.deepEqual(await exited, [null, 'SIGKILL']);
    const note = `mcp-pull-out.${child.pid as number}-${HERE}-`;
    assert.equal(readdirSync(p.skillctl).filter((e) => e.startsWith(note)).length, 1, 'the dead pull left its note');
    // A live pull of this host waiting meanwhile, as a note and a scratch folder name it: left alone.
    const live = spawn('sleep', ['30']);
    try {
      const waiting = join(p.root, 'waiting');
      const liveScratch = scratchName('w', 'pull', { pid: live.pid as number, hostname: testFileLock().hostname }, TAG);
      mkdirSync(join(waiting, liveScratch), { recursive: true });
      const liveNote = `mcp-pull-out.${live.pid as number}-${HERE}-${TAG}.json`;
      writeFileSync(join(p.skillctl, liveNote), `${JSON.stringify({ version: 1, outDir: waiting })}\n`);
      rmSync(lock);
      const r = await pull(p.root, p.out, 'b');
      assert.ok(r.ok, JSON.stringify(r.diagnostics));
      assert.deepEqual(readdirSync(first), [], 'the dead pull\'s scratch folder is gone');
      assert.deepEqual(readdirSync(p.skillctl).sort(), [liveNote, 'mcp-origins.json'].sort(), 'and its note; the live pull\'s stays');
      assert.deepEqual(readdirSync(waiting), [liveScratch]);
      assert.deepEqual(readdirSync(p.out), ['b']);
    } finally {
      live.kill();
    }
  });

  it('a note another host\'s pull left: its scratch folders stay while they may be written, and go with the note once older than the takeover age', async () => {
    const p = project();
    const other = { pid: deadPid(), hostname: `${testFileLock().hostname}-other` };
    const there = join(p.root, 'there');
    const scratch = join(there, scratchName('x', 'pull', other, TAG));
    mkdirSync(scratch, { recursive: true });
    const note = join(p.skillctl, `mcp-pull-out.${other.pid}-${ELSEWHERE}-${TAG}.json`);
    writeFileSync(note, `${JSON.stringify({ version: 1, outDir: there })}\n`);
    assert.ok((await pull(p.root, p.out, 'a')).ok);
    assert.ok(existsSync(note) && existsSync(scratch), 'younger than the takeover age: another host\'s pull may be alive');
    age(note, STALE_MS + 60_000);
    age(scratch, STALE_MS + 60_000);
    assert.ok((await pull(p.root, p.out, 'b')).ok);
    assert.equal(existsSync(note), false);
    assert.deepEqual(readdirSync(there), []);
  });
});
