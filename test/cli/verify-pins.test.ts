// skillctl verify-pins through the binary: exit codes 0/1/2, one JSON document, read-only, and
// a few of the tamper cases (test/core/pins/tamper.test.ts tries every byte in-process).
import assert from 'node:assert/strict';
import { cp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { makeContext } from '../../src/cli/context.js';
import { progressLine } from '../../src/cli/progress.js';
import { workerTrace } from '../helpers/worker-trace.js';
import { json, skillctl } from '../helpers/cli.js';
import { pinnedProject, type PinnedProject } from '../helpers/pins.js';
import { editManifest, projects, removeDir, snapshot } from '../helpers/project.js';
import { addPdfNotes } from '../helpers/skill-md.js';

interface Report {
  ok: boolean;
  format: string;
  skills: { skill_id: string; ok: boolean; digests: Record<string, { expected: string; actual: string | null }> }[];
  packs: { profile: string; ok: boolean }[];
  unpinned: string[];
  diagnostics: { code: string; pointer?: string }[];
}

describe('skillctl verify-pins', () => {
  let p: PinnedProject;
  before(async () => {
    p = await pinnedProject(['alice', 'bob']);
  });
  after(async () => removeDir(p.root));

  it('exit 0 and a summary when every pin verifies; nothing on stderr without a terminal', () => {
    const r = skillctl(['verify-pins'], { cwd: p.root });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /2 pins verified/);
    assert.equal(r.stderr, '');
  });

  it('--json prints one document with each pin, its digests and signers', () => {
    const r = skillctl(['verify-pins', '--json'], { cwd: join(p.root, 'manifests') });
    const doc = json<Report>(r);
    assert.equal(r.code, 0);
    assert.equal(doc.ok, true);
    assert.equal(doc.format, 'skillctl');
    assert.equal(doc.skills[0]?.skill_id, 'demo.hello');
    assert.deepEqual(Object.keys(doc.skills[0]?.digests ?? {}), ['manifest_digest', 'content_digest', 'files_digest']);
    assert.deepEqual(doc.packs.map((x) => x.profile), ['daily']);
  });

  it('changes nothing: every file and directory keeps its bytes, mode and mtime', async () => {
    const before = await snapshot(p.root);
    await writeFile(join(p.root, 'manifests', 'hello', 'run.js'), (await readFile(join(p.root, 'manifests', 'hello', 'run.js'))).toString());
    const mid = await snapshot(p.root);
    skillctl(['verify-pins'], { cwd: p.root });
    skillctl(['verify-pins', '--json'], { cwd: p.root });
    assert.deepEqual(await snapshot(p.root), mid);
    assert.equal(before.size, mid.size);
  });

  it('exit 1 with the code when a pinned file, the keys or the lock changed', async () => {
    const cases: [string, (s: string) => string, string][] = [
      ['manifests/hello/run.js', (s) => s.replace('hello', 'hellO'), 'PIN_MODIFIED'],
      ['manifests/hello/skill.yaml', (s) => s.replace('# A small', '# a small'), 'PIN_MODIFIED'],
      ['manifests/hello/signatures.json', (s) => s.replace('"signatures"', ' "signatures"'), 'PIN_MODIFIED'],
      ['pins/public-keys.json', (s) => s + '\n', 'KEYS_DIGEST_MISMATCH'],
      ['pins/skills.lock.json', (s) => s.replace('"min_signers": 2', '"min_signers": 3'), 'TOO_FEW_SIGNERS'],
      ['pins/skills.lock.json', (s) => s.replace('  ', '   '), 'LOCK_NOT_CANONICAL'],
    ];
    for (const [rel, edit, code] of cases) {
      const path = join(p.root, ...rel.split('/'));
      const original = await readFile(path, 'utf8');
      await writeFile(path, edit(original));
      try {
        const r = skillctl(['verify-pins', '--json'], { cwd: p.root });
        assert.equal(r.code, 1, `${rel}: ${r.stdout}`);
        assert.ok(json<Report>(r).diagnostics.some((d) => d.code === code), `${rel}: ${r.stdout}`);
      } finally {
        await writeFile(path, original);
      }
    }
  });

  it('exit 2 for a lock that is missing or not JSON, with an error document', async () => {
    const missing = skillctl(['verify-pins', '--json', '--lock', 'nope.json'], { cwd: p.root });
    assert.equal(missing.code, 2);
    assert.equal(json<{ error: { code: string } }>(missing).error.code, 'LOCK_UNREADABLE');
    const path = join(p.root, 'pins', 'skills.lock.json');
    const original = await readFile(path, 'utf8');
    await writeFile(path, original.slice(0, 40));
    try {
      const broken = skillctl(['verify-pins'], { cwd: p.root });
      assert.equal(broken.code, 2);
      assert.match(broken.stdout, /LOCK_UNREADABLE/);
      // A JSON value that is not an object is named for what it is: a lock file, not a manifest.
      await writeFile(path, '[1, 2]\n');
      const list = skillctl(['verify-pins'], { cwd: p.root });
      assert.equal(list.code, 2);
      assert.match(list.stdout, /LOCK_UNREADABLE {2}the lock file is a list; it must be a mapping of fields/);
    } finally {
      await writeFile(path, original);
    }
  });

  it('reads the lock from stdin with --lock -', async () => {
    const r = skillctl(['verify-pins', '--lock', '-'], { cwd: p.root, input: await readFile(join(p.root, 'pins', 'skills.lock.json')) });
    assert.equal(r.code, 0, r.stdout);
  });

  it('--min-signers raises the requirement', () => {
    const r = skillctl(['verify-pins', '--json', '--min-signers', '3'], { cwd: p.root });
    assert.equal(r.code, 1);
    assert.ok(json<Report>(r).diagnostics.some((d) => d.code === 'TOO_FEW_SIGNERS'));
    assert.equal(skillctl(['verify-pins', '--min-signers', 'many'], { cwd: p.root }).code, 2);
  });
});

describe('progress line', () => {
  const io = (tty: boolean): { err: PassThrough & { isTTY?: boolean }; text: () => string } => {
    const err = Object.assign(new PassThrough(), { isTTY: tty });
    const chunks: Buffer[] = [];
    err.on('data', (c: Buffer) => chunks.push(c));
    return { err, text: () => Buffer.concat(chunks).toString() };
  };
  const ctxFor = (err: PassThrough & { isTTY?: boolean }) =>
    makeContext({ stdout: new PassThrough(), stderr: err, stdin: new PassThrough(), env: {}, cwd: '/' }, { json: false, color: false, quiet: false, debug: false });

  it('draws on a terminal once the work takes more than a moment, then clears', () => {
    let t = 0;
    const { err, text } = io(true);
    const p = progressLine(ctxFor(err), 'verifying pins', () => t);
    p.tick(1, 10);
    assert.equal(text(), '');
    t = 600;
    p.tick(5, 10);
    p.end();
    assert.equal(text(), '\rverifying pins 5/10\r\u001b[2K');
  });

  it('never draws when stderr is not a terminal', () => {
    let t = 0;
    const { err, text } = io(false);
    const p = progressLine(ctxFor(err), 'verifying pins', () => t);
    t = 10_000;
    p.tick(5, 10);
    p.end();
    assert.equal(text(), '');
  });
});

describe('skillctl verify-pins on worker threads', () => {
  const { project, cleanup } = projects();
  after(cleanup);

  it('gives the same report on one thread and on two, findings from either thread included', async () => {
    const root = await project();
    // 70 bundles: over the threshold at which pins are shared out to worker threads.
    for (let i = 0; i < 70; i++) {
      const dir = join(root, 'manifests', `b${String(i).padStart(2, '0')}`);
      await cp(join(root, 'manifests', 'hello'), dir, { recursive: true });
      await editManifest(dir, (t) => t.replace('skill_id: demo.hello', `skill_id: demo.b${i}`));
    }
    assert.equal(skillctl(['pin', '--all'], { cwd: root }).code, 0);
    const threads = workerTrace(root);
    const one = skillctl(['verify-pins', '--json'], { cwd: root, env: { SKILLCTL_THREADS: '1', ...threads.env } });
    assert.equal(threads.started(), 0, 'SKILLCTL_THREADS=1: this thread only');
    const two = skillctl(['verify-pins', '--json'], { cwd: root, env: { SKILLCTL_THREADS: '2', ...threads.env } });
    assert.equal(two.code, 0, two.stdout);
    assert.equal(threads.started(), 1, 'one worker thread beside this one');
    assert.deepEqual(json(two), json(one));
    // Pins 1 and 2 of the lock go to different threads (they are dealt round-robin).
    await writeFile(join(root, 'manifests', 'b00', 'run.js'), 'changed\n');
    await writeFile(join(root, 'manifests', 'b01', 'run.js'), 'changed\n');
    const r = skillctl(['verify-pins', '--json'], { cwd: root, env: { SKILLCTL_THREADS: '2' } });
    assert.equal(r.code, 1);
    const pointers = json<Report>(r).diagnostics.filter((d) => d.code === 'PIN_MODIFIED').map((d) => d.pointer);
    assert.deepEqual(pointers, ['/skills/0/content_digest', '/skills/0/files_digest', '/skills/1/content_digest', '/skills/1/files_digest']);
    assert.deepEqual(json(r), json(skillctl(['verify-pins', '--json'], { cwd: root, env: { SKILLCTL_THREADS: '1' } })));
  });
});

describe('skillctl verify-pins of a SKILL.md folder', () => {
  const { project, cleanup } = projects();
  after(cleanup);
  let root: string;
  let dir: string;
  before(async () => {
    root = await project();
    dir = await addPdfNotes(root);
    assert.equal(skillctl(['pin', '--all'], { cwd: root }).code, 0);
  });
  const report = (): { code: number | null; doc: Report } => {
    const r = skillctl(['verify-pins', '--json'], { cwd: root });
    return { code: r.code, doc: json<Report>(r) };
  };
  /** The pdf-notes pin's index in the lock (demo.hello sorts first). */
  const at = (field: string): string => `/skills/1/${field}`;

  it('exit 0 when the folder is as pinned', () => {
    const { code, doc } = report();
    assert.equal(code, 0, JSON.stringify(doc));
    assert.deepEqual(doc.skills.map((x) => [x.skill_id, x.ok]), [
      ['demo.hello', true],
      ['pdf-notes', true],
    ]);
  });

  it('exit 1 with the code and pointer: an edited file, a changed name or metadata.version, SKILL.md deleted', async () => {
    const md = join(dir, 'SKILL.md');
    const guide = join(dir, 'references', 'GUIDE.md');
    const original = { md: await readFile(md, 'utf8'), guide: await readFile(guide, 'utf8') };
    const cases: [string, () => Promise<void>, [string, string | undefined][]][] = [
      ['edited file', () => writeFile(guide, original.guide + 'more\n'), [['PIN_MODIFIED', at('content_digest')], ['PIN_MODIFIED', at('files_digest')], ['PIN_MODIFIED', at('manifest_digest')]]],
      ['name', () => writeFile(md, original.md.replace('name: pdf-notes', 'name: pdf-notez')), [['PIN_IDENTITY_MISMATCH', at('skill_id')]]],
      ['version', () => writeFile(md, original.md.replace('"1.2.0"', '"2.0.0"')), [['PIN_IDENTITY_MISMATCH', at('skill_version')]]],
      ['SKILL.md deleted', () => rename(md, `${md}.away`), [['AGENT_SKILL_MD_MISSING', undefined], ['PIN_MODIFIED', at('content_digest')]]],
    ];
    for (const [name, edit, want] of cases) {
      await edit();
      try {
        const { code, doc } = report();
        assert.equal(code, 1, name);
        for (const [c, pointer] of want) assert.ok(doc.diagnostics.some((d) => d.code === c && d.pointer === pointer), `${name}: ${c} ${pointer}: ${JSON.stringify(doc.diagnostics)}`);
      } finally {
        await writeFile(md, original.md);
        await writeFile(guide, original.guide);
        await rm(`${md}.away`, { force: true });
      }
    }
    assert.equal(report().code, 0);
  });

  it('an unpinned SKILL.md folder under manifests/ is PIN_UNPINNED (exit 1)', async () => {
    const copy = join(root, 'manifests', 'vendor', 'pdf-notes');
    await cp(dir, copy, { recursive: true });
    try {
      const { code, doc } = report();
      assert.equal(code, 1);
      assert.deepEqual(doc.unpinned, ['manifests/vendor/pdf-notes']);
      assert.deepEqual(doc.diagnostics.map((d) => d.code), ['PIN_UNPINNED']);
    } finally {
      await rm(join(root, 'manifests', 'vendor'), { recursive: true });
    }
  });
});
