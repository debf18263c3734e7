import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { json, skillctl, type CliRun } from '../helpers/cli.js';
import type { Lie } from '../helpers/mcp-skills-server.js';
import { ROOT } from '../helpers/paths.js';
import { SERVED, SERVER, serverCommand } from '../helpers/pull-mcp.js';
import { tempDir } from '../helpers/tmp.js';

interface PullDoc {
  readonly ok: boolean;
  readonly skills: { name: string; uri: string; dir: string; files: number; replaced: boolean }[];
  readonly diagnostics: { code: string; severity: string; message: string; file?: string; pointer?: string }[];
}

function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

/** Every file of `a` and `b` the same, byte for byte, and no file in one only. */
function assertSameTree(a: string, b: string): void {
  assert.deepEqual(filesOf(a), filesOf(b));
  for (const f of filesOf(a)) assert.ok(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), f);
}

/** A project with one skill served: the fixture's pdf-processing alone. */
function oneSkillDir(): string {
  const dir = tempDir('skillctl-served-');
  cpSync(join(SERVED, 'pdf-processing'), join(dir, 'pdf-processing'), { recursive: true });
  return dir;
}

function errors(r: CliRun): string[] {
  return [...new Set(json<PullDoc>(r).diagnostics.filter((d) => d.severity === 'error').map((d) => d.code))].sort();
}

describe('skillctl pull skill:// from an honest server', () => {
  it('pulls every listed skill over stdio, byte for byte, into .agents/skills/', () => {
    const project = realpathSync(tempDir());
    const r = skillctl(['pull', '--all', '--mcp', serverCommand(SERVED), '--json'], { cwd: project });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const doc = json<PullDoc>(r);
    assert.deepEqual(
      doc.skills.map((s) => [s.name, s.uri, s.dir, s.files, s.replaced]),
      [
        ['refunds', 'skill://acme/billing/refunds/SKILL.md', '.agents/skills/refunds', 2, false],
        ['git-workflow', 'skill://git-workflow/SKILL.md', '.agents/skills/git-workflow', 1, false],
        ['pdf-processing', 'skill://pdf-processing/SKILL.md', '.agents/skills/pdf-processing', 6, false],
      ],
    );
    assert.deepEqual(doc.diagnostics, []);
    assertSameTree(join(project, '.agents/skills/pdf-processing'), join(SERVED, 'pdf-processing'));
    assertSameTree(join(project, '.agents/skills/refunds'), join(SERVED, 'acme/billing/refunds'));
    assertSameTree(join(project, '.agents/skills/git-workflow'), join(SERVED, 'git-workflow'));
    const origins = JSON.parse(readFileSync(join(project, '.skillctl/mcp-origins.json'), 'utf8')) as { skills: Record<string, { uri: string; files: { path: string }[] }> };
    assert.equal(origins.skills['.agents/skills/pdf-processing']?.uri, 'skill://pdf-processing/SKILL.md');
    assert.deepEqual(
      origins.skills['.agents/skills/pdf-processing']?.files.map((f) => f.path),
      ['SKILL.md', 'assets/logo.png', 'references/FORMS.md', 'scripts/extract.py', 'templates/invoice.md', 'templates/regional/eu-invoice.md'],
    );
  });

  it('pulls one skill by URI to --out, then replaces it on a second pull of the same skill', () => {
    const project = realpathSync(tempDir());
    const args = ['pull', 'skill://pdf-processing/SKILL.md', '--mcp', serverCommand(SERVED), '--out', 'vendor'];
    const first = skillctl(args, { cwd: project });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /skill:\/\/pdf-processing\/SKILL\.md -> vendor\/pdf-processing \(6 files\)/);
    assert.deepEqual(readdirSync(join(project, 'vendor')), ['pdf-processing']);
    const again = skillctl([...args, '--json'], { cwd: project });
    assert.equal(again.code, 0, again.stdout);
    assert.equal(json<PullDoc>(again).skills[0]?.replaced, true);
    assert.deepEqual(readdirSync(join(project, 'vendor')), ['pdf-processing']);
    assertSameTree(join(project, 'vendor/pdf-processing'), join(SERVED, 'pdf-processing'));
  });

  it('pulls over Streamable HTTP (--mcp-url) with the SDK transport', async () => {
    const project = realpathSync(tempDir());
    const portFile = join(project, 'port');
    const server = spawn(process.execPath, [SERVER, '--dir', SERVED, '--http', portFile], { stdio: 'ignore' });
    after(() => server.kill());
    for (let i = 0; i < 200 && !existsSync(portFile); i++) await sleep(50);
    const url = `http://127.0.0.1:${readFileSync(portFile, 'utf8')}/mcp`;
    const r = await new Promise<CliRun>((resolve) => {
      // The server runs in this process's children; skillctl must not block this event loop.
      const child = spawn(process.execPath, [join(ROOT, 'bin', 'skillctl.js'), 'pull', 'skill://acme/billing/refunds/SKILL.md', '--mcp-url', url, '--json'], { cwd: project, env: { ...process.env, NO_COLOR: '1' } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assertSameTree(join(project, '.agents/skills/refunds'), join(SERVED, 'acme/billing/refunds'));
  });

  it('makes a pulled skill visible to prompt, from .agents/skills/', () => {
    const project = realpathSync(tempDir());
    assert.equal(skillctl(['pull', 'skill://git-workflow/SKILL.md', '--mcp', serverCommand(SERVED)], { cwd: project }).code, 0);
    const r = skillctl(['prompt', '--json'], { cwd: project });
    assert.equal(r.code, 0, r.stdout);
    assert.deepEqual(json<{ skills: unknown[] }>(r).skills, [
      {
        name: 'git-workflow',
        description: 'Follow this team\'s Git conventions for branching and commits. Use before creating a branch or a commit.',
        location: join(project, '.agents/skills/git-workflow/SKILL.md'),
      },
    ]);
  });
});

describe('skillctl pull skill:// refuses each lie of a hostile server, and writes nothing', () => {
  const cases: [Lie, number, string[], string[]?][] = [
    ['digest', 1, ['MCP_PULL_DIGEST_MISMATCH']],
    ['size', 1, ['MCP_PULL_SIZE_MISMATCH']],
    ['frontmatter', 1, ['MCP_PULL_FRONTMATTER_MISMATCH']],
    ['unlisted', 1, ['MCP_PULL_FILE_UNLISTED']],
    ['dotdot', 1, ['MCP_PULL_URI_REFUSED']],
    ['encoded', 1, ['MCP_PULL_URI_REFUSED']],
    ['name', 1, ['MCP_PULL_NAME_MISMATCH'], ['--all']],
    ['huge', 1, ['MCP_PULL_FILE_TOO_LARGE', 'MCP_PULL_SKILL_TOO_LARGE']],
    // Listed without its size: found out when the message outgrows the bound, not after 100 MB,
    // and within 20 s: the SDK's read buffer took 40 s to reach the bound (line-buffer.ts).
    ['huge-unsized', 1, ['MCP_PULL_FILE_TOO_LARGE'], ['--timeout', '20']],
    ['many', 1, ['MCP_PULL_TOO_MANY_SKILLS'], ['--all']],
    ['hang', 2, ['MCP_PULL_SERVER_TIMEOUT'], ['--timeout', '1']],
    ['no-extension', 2, ['MCP_PULL_NOT_SUPPORTED']],
  ];
  for (const [lie, exit, codes, extra] of cases) {
    it(`${lie}: ${codes.join(', ')}, exit ${exit}`, () => {
      const project = realpathSync(tempDir());
      const target = extra?.includes('--all') === true ? [] : ['skill://pdf-processing/SKILL.md'];
      const r = skillctl(['pull', ...target, '--mcp', serverCommand(oneSkillDir(), lie), '--json', ...(extra ?? []).filter((a) => a !== '--all'), ...(extra?.includes('--all') === true ? ['--all'] : [])], {
        cwd: project,
        timeoutMs: 120_000,
      });
      assert.equal(r.code, exit, r.stdout + r.stderr);
      assert.deepEqual(errors(r), codes);
      assert.equal(json<PullDoc>(r).ok, false);
      assert.deepEqual(readdirSync(project), [], 'nothing is written');
    });
  }
});

describe('skillctl pull skill:// when the server cannot be used or the arguments are wrong', () => {
  it('a URI the server does not serve: MCP_PULL_SKILL_NOT_FOUND, exit 2', () => {
    const project = realpathSync(tempDir());
    const r = skillctl(['pull', 'skill://nope/SKILL.md', '--mcp', serverCommand(SERVED), '--json'], { cwd: project });
    assert.equal(r.code, 2);
    assert.deepEqual(errors(r), ['MCP_PULL_SKILL_NOT_FOUND']);
    assert.deepEqual(readdirSync(project), []);
  });

  it('a program that does not exist: MCP_PULL_SERVER_UNAVAILABLE, exit 2', () => {
    const r = skillctl(['pull', 'skill://x/SKILL.md', '--mcp', 'skillctl-no-such-server --x', '--json'], { cwd: realpathSync(tempDir()) });
    assert.equal(r.code, 2);
    assert.deepEqual(errors(r), ['MCP_PULL_SERVER_UNAVAILABLE']);
  });

  it('a program that is not an MCP server (it exits): MCP_PULL_SERVER_UNAVAILABLE, exit 2', () => {
    const r = skillctl(['pull', 'skill://x/SKILL.md', '--mcp', `'${process.execPath}' -e 'process.exit(0)'`, '--json'], { cwd: realpathSync(tempDir()) });
    assert.equal(r.code, 2);
    assert.deepEqual(errors(r), ['MCP_PULL_SERVER_UNAVAILABLE']);
  });

  it('runs no shell: ; $(…) and | in --mcp are words given to the program, never commands', () => {
    const project = realpathSync(tempDir());
    const r = skillctl(['pull', 'skill://x/SKILL.md', '--mcp', `${serverCommand(SERVED)} ; touch pwned-1 $(touch pwned-2) | touch pwned-3`, '--json'], { cwd: project });
    assert.equal(r.code, 2);
    assert.deepEqual(errors(r), ['MCP_PULL_SERVER_UNAVAILABLE']);
    assert.deepEqual(readdirSync(project), []);
  });

  const usage: [string, string[], RegExp][] = [
    ['no server', ['pull', 'skill://x/SKILL.md'], /--mcp COMMAND or --mcp-url URL/],
    ['both servers', ['pull', 'skill://x/SKILL.md', '--mcp', 'x', '--mcp-url', 'http://127.0.0.1:1/mcp'], /one of them/],
    ['another scheme', ['pull', 'ftp://x/SKILL.md', '--mcp', 'x'], /pull takes oci:\/\/, skill:\/\//],
    ['a URI that is not a SKILL.md', ['pull', 'skill://x/README.md', '--mcp', 'x'], /does not end in \/SKILL\.md/],
    ['a URI with ..', ['pull', 'skill://x/../y/SKILL.md', '--mcp', 'x'], /a "\.\." segment/],
    ['an open quote', ['pull', 'skill://x/SKILL.md', '--mcp', "node 'x"], /unclosed ' quote/],
    ['a URL with a password', ['pull', 'skill://x/SKILL.md', '--mcp-url', 'http://u:p@127.0.0.1:1/mcp'], /user name or password/],
    ['--all with a URI', ['pull', 'skill://x/SKILL.md', '--all', '--mcp', 'x'], /give no URI/],
    ['a bad --timeout', ['pull', 'skill://x/SKILL.md', '--mcp', 'x', '--timeout', '0'], /seconds above 0/],
  ];
  for (const [what, args, message] of usage) {
    it(`${what}: a usage error, exit 2`, () => {
      const project = realpathSync(tempDir());
      const r = skillctl(args, { cwd: project });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.deepEqual(readdirSync(project), []);
    });
  }
});

describe('skillctl pull skill:// never shadows a skill of another origin', () => {
  it('a local skill of the same name: MCP_PULL_NAME_COLLISION, exit 1, nothing written', () => {
    const project = realpathSync(tempDir());
    mkdirSync(join(project, 'skills/pdf-processing'), { recursive: true });
    writeFileSync(join(project, 'skills/pdf-processing/SKILL.md'), '---\nname: pdf-processing\ndescription: Local.\n---\n');
    const r = skillctl(['pull', 'skill://pdf-processing/SKILL.md', '--mcp', serverCommand(SERVED), '--json'], { cwd: project });
    assert.equal(r.code, 1, r.stdout);
    assert.deepEqual(errors(r), ['MCP_PULL_NAME_COLLISION']);
    assert.deepEqual(readdirSync(project), ['skills']);
  });

  it('the same name from another server: MCP_PULL_NAME_COLLISION, and the first pull stays', () => {
    const project = realpathSync(tempDir());
    assert.equal(skillctl(['pull', 'skill://pdf-processing/SKILL.md', '--mcp', serverCommand(SERVED)], { cwd: project }).code, 0);
    const other = oneSkillDir();
    const r = skillctl(['pull', 'skill://pdf-processing/SKILL.md', '--mcp', serverCommand(other), '--json'], { cwd: project });
    assert.equal(r.code, 1, r.stdout);
    assert.deepEqual(errors(r), ['MCP_PULL_NAME_COLLISION']);
    assert.match(json<PullDoc>(r).diagnostics[0]?.message ?? '', /already holds skill:\/\/pdf-processing\/SKILL\.md from /);
    assertSameTree(join(project, '.agents/skills/pdf-processing'), join(SERVED, 'pdf-processing'));
  });
});

describe('pins of pulled skills', () => {
  interface Lock {
    skills: { skill_id: string; source: string; origin?: { mcp: { server: { command: string[] }; uri: string; files: { path: string; digest: string; size: number }[] } } }[];
  }
  const lockOf = (project: string): Lock => JSON.parse(readFileSync(join(project, 'pins/skills.lock.json'), 'utf8')) as Lock;

  it('pin records the origin; verify-pins stays offline; --remote reports drift as MCP_PIN_DRIFT', () => {
    const project = realpathSync(tempDir());
    const served = oneSkillDir();
    const command = serverCommand(served);
    assert.equal(skillctl(['pull', 'skill://pdf-processing/SKILL.md', '--mcp', command], { cwd: project }).code, 0);
    const pinned = skillctl(['pin', '.agents/skills/pdf-processing'], { cwd: project });
    assert.equal(pinned.code, 0, pinned.stdout + pinned.stderr);
    const origin = lockOf(project).skills[0]?.origin?.mcp;
    assert.equal(origin?.uri, 'skill://pdf-processing/SKILL.md');
    assert.deepEqual(origin?.server.command, [process.execPath, SERVER, '--dir', served]);
    assert.equal(origin?.files.length, 6);
    assert.equal(origin?.files[0]?.path, 'SKILL.md');

    assert.equal(skillctl(['verify-pins'], { cwd: project }).code, 0);
    const same = skillctl(['verify-pins', '--remote', '--start-servers', '--json'], { cwd: project });
    assert.equal(same.code, 0, same.stdout);

    writeFileSync(join(served, 'pdf-processing/references/FORMS.md'), 'Rotated by the server.\n');
    const drift = skillctl(['verify-pins', '--remote', '--start-servers', '--json'], { cwd: project });
    assert.equal(drift.code, 1, drift.stdout);
    const found = json<{ diagnostics: { code: string; message: string; file: string }[] }>(drift).diagnostics.filter((d) => d.code === 'MCP_PIN_DRIFT');
    assert.equal(found.length, 1);
    assert.match(found[0]?.message ?? '', /references\/FORMS\.md changed/);
    assert.equal(found[0]?.file, '.agents/skills/pdf-processing');
    // Offline, the local files still match their pin: the server is never asked.
    assert.equal(skillctl(['verify-pins'], { cwd: project }).code, 0);
  });

  it('a pulled folder edited since is pinned without its origin, with MCP_PIN_ORIGIN_STALE', () => {
    const project = realpathSync(tempDir());
    assert.equal(skillctl(['pull', 'skill://pdf-processing/SKILL.md', '--mcp', serverCommand(SERVED)], { cwd: project }).code, 0);
    writeFileSync(join(project, '.agents/skills/pdf-processing/templates/invoice.md'), 'Edited here.\n');
    const r = skillctl(['pin', '.agents/skills/pdf-processing', '--json'], { cwd: project });
    assert.equal(r.code, 0, r.stdout);
    assert.deepEqual(json<{ diagnostics: { code: string }[] }>(r).diagnostics.map((d) => d.code), ['MCP_PIN_ORIGIN_STALE']);
    assert.equal(lockOf(project).skills[0]?.origin, undefined);
  });
});
