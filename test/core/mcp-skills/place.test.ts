// placeSkills under the project's write lock: records kept by concurrent pulls, all or nothing
// when a rename or the record write fails, and the lock waited for as pin waits for its own.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { FileLockOptions } from '../../../src/core/fs/index.js';
import { ORIGINS_FILE, placeSkills, type PulledSkill } from '../../../src/core/mcp-skills/index.js';
import { ORIGINS_LOCK } from '../../../src/core/mcp-skills/origins.js';
import { testFileLock } from '../../helpers/file-lock.js';
import { pulledSkill } from '../../helpers/pulled-skill.js';
import { tempDir } from '../../helpers/tmp.js';

const SERVER = { command: ['srv'] };

const skill = pulledSkill;

function project(): { root: string; out: string; lock: string; origins: string } {
  const root = realpathSync(tempDir('skillctl-place-'));
  mkdirSync(join(root, '.skillctl'));
  return { root, out: join(root, 'out'), lock: join(root, ...ORIGINS_LOCK.split('/')), origins: join(root, ...ORIGINS_FILE.split('/')) };
}

/** Takes the write lock as another process would (a live holder: this one), until the test lets go. */
function holdLock(lock: string): void {
  writeFileSync(lock, `${JSON.stringify({ pid: process.pid, hostname: testFileLock().hostname, token: 'test' })}\n`);
}

/** Lock options whose every wait runs `onWait` first: the pull has written its scratch folders and waits for the lock. */
function waiting(onWait: () => Promise<void> | void, extra: Partial<FileLockOptions> = {}): FileLockOptions {
  const base = testFileLock();
  return { ...base, ...extra, sleep: async (ms) => (await onWait(), base.sleep(ms)) };
}

const place = (p: ReturnType<typeof project>, skills: PulledSkill[], fileLock: FileLockOptions) => placeSkills(skills, { root: p.root, outDir: p.out, server: SERVER, localFolders: async () => [], fileLock });
const records = (p: ReturnType<typeof project>): string[] => Object.keys((JSON.parse(readFileSync(p.origins, 'utf8')) as { skills: object }).skills);
const scratchOf = (p: ReturnType<typeof project>, name: string): string => join(p.out, readdirSync(p.out).find((e) => e.startsWith(`.${name}.pull-`)) ?? assert.fail(`no scratch folder of ${name}`));

describe('placeSkills under the write lock', () => {
  it('two pulls of different skills, let in at the same moment, both keep their origin records', async () => {
    for (let round = 0; round < 5; round++) {
      const p = project();
      holdLock(p.lock);
      // Released once, when both wait: each has read the records before the lock, and both race for it.
      const waiters = new Set<string>();
      let released = false;
      const arrive = (name: string) =>
        waiting(async () => {
          waiters.add(name);
          if (waiters.size === 2 && !released) {
            released = true;
            await unlink(p.lock);
          }
        });
      const [a, b] = await Promise.all([place(p, [skill('a', 'A.')], arrive('a')), place(p, [skill('b', 'B.')], arrive('b'))]);
      assert.ok(a.ok && b.ok);
      assert.deepEqual(records(p), ['out/a', 'out/b']);
      assert.deepEqual(readdirSync(p.out).sort(), ['a', 'b']);
    }
  });

  it('waits while another process holds the lock, places nothing meanwhile, then lands', async () => {
    const p = project();
    holdLock(p.lock);
    let waits = 0;
    const r = await place(p, [skill('a', 'A.')], waiting(async () => {
      assert.deepEqual(readdirSync(p.out).filter((e) => !e.startsWith('.')), [], 'nothing is placed while the lock is held');
      if (++waits === 3) await unlink(p.lock);
    }));
    assert.ok(r.ok);
    assert.equal(waits, 3);
    assert.deepEqual(readdirSync(p.out), ['a']);
  });

  it('gives up with LOCK_BUSY when the lock stays held, leaving no scratch folder', async () => {
    const p = project();
    holdLock(p.lock);
    await assert.rejects(place(p, [skill('a', 'A.')], { ...testFileLock(), timeoutMs: 50 }), { code: 'LOCK_BUSY' });
    assert.deepEqual(readdirSync(p.out), []);
    assert.deepEqual(readdirSync(join(p.root, '.skillctl')), ['.mcp-origins.json.lck'], 'the holder keeps its lock');
  });

  it('checks collisions again holding the lock: a folder that appeared meanwhile is MCP_PULL_NAME_COLLISION, and left alone', async () => {
    const p = project();
    holdLock(p.lock);
    const r = await place(p, [skill('a', 'A.')], waiting(async () => {
      mkdirSync(join(p.out, 'a'));
      writeFileSync(join(p.out, 'a', 'SKILL.md'), 'mine\n');
      await unlink(p.lock);
    }));
    assert.equal(r.ok, false);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['MCP_PULL_NAME_COLLISION']);
    assert.deepEqual(readdirSync(p.out), ['a']);
    assert.equal(readFileSync(join(p.out, 'a', 'SKILL.md'), 'utf8'), 'mine\n');
  });
});

describe('placeSkills is all or nothing', () => {
  // The second skill's rename fails (its scratch folder is taken away while the pull waits for
  // the lock: after the collision check could see anything): the first must not stay placed.
  for (const earlier of [false, true]) {
    it(`a failed second rename undoes the first${earlier ? ', restoring the earlier pull it replaced' : ''}`, async () => {
      const p = project();
      if (earlier) assert.ok((await place(p, [skill('a', 'Old.')], testFileLock())).ok);
      const before = earlier ? readFileSync(p.origins) : undefined;
      holdLock(p.lock);
      const pull = place(p, [skill('a', 'New.'), skill('b', 'B.')], waiting(async () => {
        await rm(scratchOf(p, 'b'), { recursive: true });
        await unlink(p.lock);
      }));
      await assert.rejects(pull, { code: 'ENOENT' });
      assert.deepEqual(readdirSync(p.out), earlier ? ['a'] : [], 'no skill placed, no scratch folder left');
      if (earlier) {
        assert.equal(readFileSync(join(p.out, 'a', 'notes.md'), 'utf8'), 'Old.\n');
        assert.ok(readFileSync(p.origins).equals(before as Buffer), 'the records are as they were');
      } else {
        assert.deepEqual(readdirSync(join(p.root, '.skillctl')), [], 'no records, and the lock released');
      }
    });
  }

  it('a record write that fails undoes every rename', async () => {
    const p = project();
    // A directory where the records go: read as no records, and the atomic rename over it fails.
    mkdirSync(join(p.origins, 'x'), { recursive: true });
    await assert.rejects(place(p, [skill('a', 'A.'), skill('b', 'B.')], testFileLock()), (err: NodeJS.ErrnoException) => err.code === 'EISDIR' || err.code === 'ENOTEMPTY');
    assert.deepEqual(readdirSync(p.out), []);
  });
});
