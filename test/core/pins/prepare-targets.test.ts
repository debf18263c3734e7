// pin and the write lock for pulls: a pulled folder is pinned with the origin record a pull left
// it with, never with the record of another moment. The test holds the lock as a pull would
// (a live holder: this process) and does, while pin waits, what that pull does holding it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { FileLockOptions } from '../../../src/core/fs/index.js';
import { placeSkills, type McpOrigin } from '../../../src/core/mcp-skills/index.js';
import { ORIGINS_FILE, ORIGINS_LOCK, renderOrigins, writeOrigins } from '../../../src/core/mcp-skills/origins.js';
import { collectTargets, openLock, pin, verifyLock, type PinOutcome, type SkillctlLock } from '../../../src/core/pins/index.js';
import { testFileLock } from '../../helpers/file-lock.js';
import { ROOT } from '../../helpers/paths.js';
import { pulledSkill } from '../../helpers/pulled-skill.js';
import { tempDir } from '../../helpers/tmp.js';

const SERVER = { command: ['srv'] };
const SKILLS = '.agents/skills';

function project(): string {
  const root = realpathSync(tempDir('skillctl-pin-pulled-'));
  mkdirSync(join(root, '.skillctl'));
  return root;
}

const origins = (root: string): Record<string, McpOrigin> => (JSON.parse(readFileSync(join(root, ...ORIGINS_FILE.split('/')), 'utf8')) as { skills: Record<string, McpOrigin> }).skills;
const lockOf = (root: string): SkillctlLock => JSON.parse(readFileSync(join(root, 'pins', 'skills.lock.json'), 'utf8')) as SkillctlLock;

/** Holds the write lock for pulls of `root` as a live pull would; the returned function lets go. */
function holdPullLock(root: string): () => void {
  const lock = join(root, ...ORIGINS_LOCK.split('/'));
  writeFileSync(lock, `${JSON.stringify({ pid: process.pid, hostname: testFileLock().hostname, token: 'pull' })}\n`);
  return () => unlinkSync(lock);
}

async function pinFolders(root: string, paths: string[], fileLock: FileLockOptions = testFileLock()): Promise<PinOutcome> {
  const targets = await collectTargets(root, root, paths, false);
  assert.deepEqual(targets.diagnostics, []);
  return pin({ root, lockPath: join(root, 'pins', 'skills.lock.json'), lockFile: 'pins/skills.lock.json', targets: targets.targets, signing: [], replace: false, trustKeys: false, prune: false, fileLock });
}

/** Lock options whose first wait runs `pull` (the holder's work) and then lets go of the lock. */
function waitingFor(pull: () => Promise<void>, release: () => void): { fileLock: FileLockOptions; waits: () => number } {
  const base = testFileLock();
  let waits = 0;
  return {
    waits: () => waits,
    fileLock: {
      ...base,
      sleep: async (ms) => {
        if (waits++ === 0) {
          await pull();
          release();
        }
        return base.sleep(ms);
      },
    },
  };
}

describe('pin holds the write lock for pulls', () => {
  it('a folder renamed into place whose record the pull has not yet written: pin waits, and binds it to the record written', async () => {
    const root = project();
    const skill = pulledSkill('a', 'A.');
    // The pull's renames are done (the folder is in place), its records not yet written.
    mkdirSync(join(root, SKILLS, 'a'), { recursive: true });
    for (const f of skill.files) writeFileSync(join(root, SKILLS, 'a', f.path), f.bytes);
    const release = holdPullLock(root);
    const { fileLock, waits } = waitingFor(async () => {
      assert.equal(existsSync(join(root, 'pins', 'skills.lock.json')), false, 'nothing is pinned while the pull holds the lock');
      const record: McpOrigin = { server: SERVER, uri: skill.uri, files: skill.files.map((f) => ({ path: f.path, digest: f.digest, size: f.size })) };
      await writeOrigins(root, renderOrigins({ [`${SKILLS}/a`]: record }), testFileLock());
    }, release);
    const r = await pinFolders(root, [`${SKILLS}/a`], fileLock);
    assert.ok(r.ok, JSON.stringify(r.diagnostics));
    assert.ok(waits() > 0, 'pin waited for the pull');
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(lockOf(root).skills[0]?.origin, { mcp: origins(root)[`${SKILLS}/a`] });
  });

  it('a folder a pull replaces while pin waits: pinned as the pull left it, files and record together', async () => {
    const root = project();
    const place = (body: string, fileLock: FileLockOptions) => placeSkills([pulledSkill('a', body)], { root, outDir: join(root, SKILLS), server: SERVER, localFolders: async () => [], fileLock });
    assert.ok((await place('Old.', testFileLock())).ok);
    const release = holdPullLock(root);
    // The pull lands while pin waits: it takes the lock over from the test (the same holder).
    const { fileLock, waits } = waitingFor(async () => {
      release();
      assert.ok((await place('New.', testFileLock())).ok);
    }, () => undefined);
    const r = await pinFolders(root, [`${SKILLS}/a`], fileLock);
    assert.ok(r.ok, JSON.stringify(r.diagnostics));
    assert.ok(waits() > 0);
    assert.deepEqual(r.diagnostics, [], 'no MCP_PIN_ORIGIN_STALE: the files hashed and the record read are of one state');
    assert.deepEqual(lockOf(root).skills[0]?.origin, { mcp: origins(root)[`${SKILLS}/a`] });
    const opened = await openLock(join(root, 'pins', 'skills.lock.json'));
    assert.ok(opened.context !== undefined && opened.context.format === 'skillctl');
    assert.deepEqual((await verifyLock(opened.context)).diagnostics.filter((d) => d.severity === 'error'), [], 'the pin verifies against the folder as it is');
  });

  it('puts right a pull that died holding the lock before hashing: the earlier copy back, pinned with its record', async () => {
    const root = project();
    const place = (body: string) => placeSkills([pulledSkill('a', body)], { root, outDir: join(root, SKILLS), server: SERVER, localFolders: async () => [], fileLock: testFileLock() });
    assert.ok((await place('Old.')).ok);
    // Killed after its third rename: the new a in place, no records written (test/helpers/killed-pull.ts).
    const killed = spawnSync(process.execPath, [join(ROOT, 'dist', 'test', 'helpers', 'killed-pull.js'), root, join(root, SKILLS), '3', 'a:New.', 'b:B.'], { encoding: 'utf8' });
    assert.equal(killed.signal, 'SIGKILL', killed.stderr);
    assert.equal(readFileSync(join(root, SKILLS, 'a', 'notes.md'), 'utf8'), 'New.\n');
    const r = await pinFolders(root, [`${SKILLS}/a`]);
    assert.ok(r.ok, JSON.stringify(r.diagnostics));
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['MCP_PULL_RECOVERED'], 'and no MCP_PIN_ORIGIN_STALE for the half-placed folder hashed before the lock');
    assert.equal(readFileSync(join(root, SKILLS, 'a', 'notes.md'), 'utf8'), 'Old.\n');
    assert.deepEqual(lockOf(root).skills[0]?.origin, { mcp: origins(root)[`${SKILLS}/a`] });
  });

  it('pinning only packs takes no write lock for pulls and makes no .skillctl/', async () => {
    const root = realpathSync(tempDir('skillctl-pin-pulled-'));
    mkdirSync(join(root, 'manifests', 'packs'), { recursive: true });
    writeFileSync(join(root, 'manifests', 'packs', 'daily.yaml'), readFileSync(join(ROOT, 'fixtures', 'pins', 'project', 'manifests', 'packs', 'daily.yaml')));
    const r = await pinFolders(root, ['manifests/packs/daily.yaml']);
    assert.ok(r.ok, JSON.stringify(r.diagnostics));
    assert.equal(existsSync(join(root, '.skillctl')), false);
  });
});
