// verify-pins --remote --timeout: one deadline over the whole remote part. An origin that never
// answers (a registry that accepts and stalls, an MCP server that stalls after initialize) held
// the check for as long as its per-request limit allowed (60 s of silence for a registry, for
// ever for one that trickles; 30 s per request for a server); with --timeout each unfinished
// origin is reported with its scheme's code once the deadline passes, the offline findings are
// still reported, and nothing is written. The registry is on loopback, which
// --remote contacts only with --private-origins (test/security/lock-origins.test.ts).
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { serverLabel } from '../../src/core/mcp-skills/index.js';
import { json, skillctl, skillctlAsync } from '../helpers/cli.js';
import { hostileRegistry, type HostileRegistry } from '../helpers/hostile-registry.js';
import { skillArtifact } from '../helpers/skill-artifact.js';
import { SERVED, serverCommand } from '../helpers/pull-mcp.js';
import { snapshot } from '../helpers/project.js';
import { PDF_NOTES_DIR } from '../helpers/skill-md.js';
import { tempDir } from '../helpers/tmp.js';

interface Finding {
  readonly code: string;
  readonly message: string;
  readonly file?: string;
  readonly pointer?: string;
}

interface Lock {
  skills: { source: string; origin?: { mcp?: { server: { command: string[] } } } }[];
}

const LOCK = 'pins/skills.lock.json';

/** The lock's one MCP origin started as `command` makes of it instead (the lock is plain JSON; nothing else pins it); that argv. */
function startMcpWith(project: string, command: (recorded: string[]) => string[]): string[] {
  const lock = JSON.parse(readFileSync(join(project, LOCK), 'utf8')) as Lock;
  const server = lock.skills.find((pin) => pin.origin?.mcp !== undefined)?.origin?.mcp?.server;
  assert.ok(server !== undefined);
  server.command = command(server.command);
  writeFileSync(join(project, LOCK), `${JSON.stringify(lock, null, 2)}\n`);
  return server.command;
}

/** Whether process `pid` is alive, waiting up to 2 s for it to go. */
async function aliveAfter(pid: number): Promise<boolean> {
  for (let i = 0; i < 40; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return false;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

describe('verify-pins --remote --timeout SECONDS', () => {
  let reg: HostileRegistry;
  /** Once set, every request to the registry is accepted and never answered. */
  let stall = false;
  let env: Record<string, string>;
  let ref: string;

  before(async () => {
    const work = tempDir('skillctl-vp-timeout-');
    reg = await hostileRegistry({ misbehaviour: 'none', ...(await skillArtifact(PDF_NOTES_DIR, join(work, 'packed'))), hold: () => (stall ? new Promise<void>(() => undefined) : undefined) });
    env = { XDG_CACHE_HOME: join(work, 'cache'), DOCKER_CONFIG: join(work, 'no-docker') };
    ref = `oci://${reg.host}/skills/pdf-notes:1`;
  });
  after(() => reg.close());

  /**
   * verify-pins --remote --timeout 1 in `dir` once the registry stalls: exit 2 within seconds
   * (before, the 60 s idle timer or the 30 s MCP request limit), nothing written; its findings.
   */
  async function pastDeadline(dir: string, seconds = 1): Promise<Finding[]> {
    const before = await snapshot(dir);
    stall = true;
    const started = Date.now();
    const r = await skillctlAsync(['verify-pins', '--remote', '--private-origins', '--start-servers', '--timeout', String(seconds), '--json'], { cwd: dir, env, timeoutMs: 30_000 });
    const ms = Date.now() - started;
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.ok(ms < seconds * 1000 + 9000, `verify-pins took ${ms} ms`);
    assert.deepEqual(await snapshot(dir), before);
    return json<{ diagnostics: Finding[] }>(r).diagnostics;
  }

  /** A finding as the tests compare it: code, file, pointer and message. */
  type Row = [string, string | undefined, string | undefined, string];
  const row = (d: Finding): Row => [d.code, d.file, d.pointer, d.message];
  /** What the OCI pin's registry past the deadline is reported with. */
  const ociTimeout = (): Row => ['OCI_UNREACHABLE', LOCK, '/skills/0/origin/oci', `pdf-notes 1.2.0: ${reg.host}: manifest skills/pdf-notes:1: not finished within the 1 s timeout`];
  /** What the MCP pin's server `command` past the deadline is reported with, in `method`. */
  const mcpTimeout = (command: string[], method: string, seconds = 1): Row => [
    'MCP_PULL_SERVER_TIMEOUT',
    '.agents/skills/pdf-processing',
    undefined,
    `${serverLabel({ command })}: ${method}: not finished within the ${seconds} s timeout`,
  ];

  /** A project holding the skill pinned from the registry (.agents/skills/pdf-notes), and `served`'s pdf-processing pulled and pinned with its MCP origin. */
  async function project(opts: { oci: boolean; mcp: boolean }): Promise<string> {
    const dir = tempDir('skillctl-vp-timeout-proj-');
    mkdirSync(join(dir, 'pins'));
    if (opts.oci) {
      stall = false;
      // Not spawnSync: the registry answers from this process's event loop.
      const pinned = await skillctlAsync(['pin', ref], { cwd: dir, env });
      assert.equal(pinned.code, 0, pinned.stdout + pinned.stderr);
    }
    if (opts.mcp) {
      const served = tempDir('skillctl-served-');
      cpSync(join(SERVED, 'pdf-processing'), join(served, 'pdf-processing'), { recursive: true });
      assert.equal(skillctl(['pull', 'skill://pdf-processing/SKILL.md', '--mcp', serverCommand(served)], { cwd: dir }).code, 0);
      const pinned = skillctl(['pin', '.agents/skills/pdf-processing'], { cwd: dir });
      assert.equal(pinned.code, 0, pinned.stdout + pinned.stderr);
    }
    return dir;
  }

  it('origins that answer in time: not cut, exit 0', async () => {
    const dir = await project({ oci: true, mcp: true });
    const r = await skillctlAsync(['verify-pins', '--remote', '--private-origins', '--start-servers', '--timeout', '60', '--json'], { cwd: dir, env, timeoutMs: 30_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });

  it('without --start-servers a server program the lock records is reported, not started (exit 2); the registry is asked', async () => {
    const dir = await project({ oci: true, mcp: true });
    const command = startMcpWith(dir, (recorded) => ['/bin/sh', '-c', ': > started; exec "$@"', 'sh', ...recorded]);
    const r = await skillctlAsync(['verify-pins', '--remote', '--private-origins', '--json'], { cwd: dir, env, timeoutMs: 30_000 });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.deepEqual(json<{ diagnostics: Finding[] }>(r).diagnostics.map(row), [
      [
        'MCP_PULL_SERVER_NOT_STARTED',
        '.agents/skills/pdf-processing',
        undefined,
        `${serverLabel({ command })} was not started: verify-pins --remote starts the programs a lock records only with --start-servers`,
      ],
    ]);
    assert.ok(!existsSync(join(dir, 'started')), 'the program the lock records was started');
    const usage = skillctl(['verify-pins', '--start-servers', '--json'], { cwd: dir, env });
    assert.deepEqual([usage.code, json<{ error: { code: string; message: string } }>(usage).error], [2, { code: 'USAGE', message: '--start-servers starts the servers --remote asks, which is not given' }]);
  });

  it('a registry that accepts and never answers, --timeout 1: OCI_UNREACHABLE naming the timeout within seconds, exit 2, nothing written', async () => {
    const dir = await project({ oci: true, mcp: false });
    assert.deepEqual((await pastDeadline(dir)).map(row), [ociTimeout()]);
  });

  it('an MCP server that stalls after initialize, --timeout 1: MCP_PULL_SERVER_TIMEOUT naming the timeout within seconds, exit 2, the server gone', async () => {
    const dir = await project({ oci: false, mcp: true });
    // The server's pid written before it is started in the project's stead (sh execs into it).
    const pidFile = join(tempDir('skillctl-vp-pid-'), 'pid');
    const command = startMcpWith(dir, (recorded) => ['/bin/sh', '-c', `echo $$ > '${pidFile}'; exec "$@"`, 'sh', ...recorded, '--lie', 'hang']);
    // 4 s, so that the server has answered initialize before the deadline even on a loaded
    // machine (1 s was cut in initialize under CI load): what is cut is the stalled skills/get.
    assert.deepEqual((await pastDeadline(dir, 4)).map(row), [mcpTimeout(command, 'skills/get', 4)]);
    assert.equal(await aliveAfter(Number(readFileSync(pidFile, 'utf8'))), false, 'the server outlived verify-pins');
  });

  it('one deadline for the whole remote part: past it, an MCP server is not even started; the offline findings are all reported', async () => {
    const dir = await project({ oci: true, mcp: true });
    // A server that would mark the project when started, then stall.
    const command = startMcpWith(dir, (recorded) => ['/bin/sh', '-c', ': > started; exec "$@"', 'sh', ...recorded, '--lie', 'hang']);
    const edited = join(dir, '.agents', 'skills', 'pdf-notes', 'SKILL.md');
    writeFileSync(edited, `${readFileSync(edited, 'utf8')}\nEdited.\n`);
    const offline = json<{ diagnostics: Finding[] }>(skillctl(['verify-pins', '--json'], { cwd: dir, env })).diagnostics;
    assert.ok(offline.some((d) => d.code === 'PIN_MODIFIED'), JSON.stringify(offline));
    const found = await pastDeadline(dir);
    assert.deepEqual(found.filter((d) => d.code !== 'OCI_UNREACHABLE' && d.code !== 'MCP_PULL_SERVER_TIMEOUT'), offline);
    assert.deepEqual(found.filter((d) => d.code === 'OCI_UNREACHABLE' || d.code === 'MCP_PULL_SERVER_TIMEOUT').map(row), [mcpTimeout(command, 'initialize'), ociTimeout()]);
    assert.ok(!existsSync(join(dir, 'started')), 'a server was started after the deadline');
  });

  it('--private-origins without --remote is a usage error: USAGE, exit 2', () => {
    const dir = tempDir('skillctl-vp-private-usage-');
    const r = skillctl(['verify-pins', '--private-origins', '--json'], { cwd: dir });
    assert.deepEqual([r.code, json<{ error: { code: string; message: string } }>(r).error], [
      2,
      { code: 'USAGE', message: '--private-origins lets --remote contact private addresses, and --remote is not given' },
    ]);
  });

  it('--timeout without --remote is a usage error: USAGE, exit 2, nothing asked', () => {
    const dir = tempDir('skillctl-vp-timeout-usage-');
    const r = skillctl(['verify-pins', '--timeout', '5', '--json'], { cwd: dir });
    assert.equal(r.code, 2, r.stdout);
    assert.deepEqual(json<{ error: { code: string; message: string } }>(r).error, { code: 'USAGE', message: '--timeout bounds the checks of --remote, which is not given' });
    const plain = skillctl(['verify-pins', '--timeout', '5'], { cwd: dir });
    assert.equal(plain.code, 2);
    assert.equal(plain.stderr, 'error USAGE: --timeout bounds the checks of --remote, which is not given\n');
  });
});
