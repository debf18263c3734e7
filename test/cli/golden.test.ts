// CLI golden files: every case of golden-cases.ts runs the built binary as a user would and its
// stdout, stderr and exit status (plus the files it wrote, for some) must equal
// fixtures/cli-golden/<case name>.golden byte for byte. They pin today's behaviour, so that a
// refactor that changes a byte of any command's output fails here.
//
// SKILLCTL_UPDATE_GOLDEN=1 node scripts/test.mjs --no-lint test/cli/golden.test.js
// rewrites the golden files (and deletes those no case names) instead of comparing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, cp, lstat, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CASES } from './golden-cases.js';
import { skillctlAsync, type CliRun } from '../helpers/cli.js';
import { caseName, fileSections, render, substitute, type GoldenCase, type Normaliser } from '../helpers/golden-cli.js';
import { ROOT } from '../helpers/paths.js';
import { assertSarif } from '../helpers/sarif.js';

const UPDATE = process.env.SKILLCTL_UPDATE_GOLDEN === '1';
const GOLDEN_DIR = join(ROOT, 'fixtures', 'cli-golden');
const REPO = ROOT.replace(/\/$/, '');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const UPDATE_HINT = 'if the change is intended: SKILLCTL_UPDATE_GOLDEN=1 node scripts/test.mjs --no-lint test/cli/golden.test.js';
// Each case is a process that mostly waits on its own start-up; two at a time keeps a 2-core
// machine busy without starving the test files that npm test runs beside this one.
const CONCURRENCY = Math.min(3, Math.max(2, availableParallelism() - 1));

// Files skillctl creates get the same modes whatever the caller's umask (children inherit it),
// so file listings are the same on every machine.
process.umask(0o022);

/**
 * The environment of every run: none of the caller's SKILLCTL_* settings (a registry, a thread
 * cap, the V8 cache mode), and this test's node first on PATH, so a node entrypoint runs on the
 * node that runs the suite.
 */
function baseEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const k of Object.keys(process.env)) if (k.startsWith('SKILLCTL_')) env[k] = undefined;
  env.PATH = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
  return env;
}

/**
 * Gives copied fixtures the modes git would check them out with under umask 022 (0644, or 0755
 * with any execute bit): a checkout made under another umask must not change a listing.
 */
async function gitModes(path: string): Promise<void> {
  const st = await lstat(path);
  if (st.isSymbolicLink()) return;
  if (st.isDirectory()) {
    await chmod(path, 0o755);
    for (const name of await readdir(path)) await gitModes(join(path, name));
  } else await chmod(path, (st.mode & 0o111) !== 0 ? 0o755 : 0o644);
}

async function runCase(c: GoldenCase, temps: string[]): Promise<string> {
  const paths: [string, string][] = [[REPO, '<ROOT>'], [await realpath(REPO), '<ROOT>']];
  let dir: string | undefined;
  if (c.temp !== undefined) {
    const made = await mkdtemp(join(tmpdir(), 'skillctl-golden-'));
    temps.push(made);
    dir = await realpath(made);
    paths.push([made, '<TMP>'], [dir, '<TMP>']);
    for (const [to, from] of Object.entries(c.temp)) {
      await mkdir(dirname(join(dir, to)), { recursive: true });
      await cp(join(ROOT, from), join(dir, to), { recursive: true });
      await gitModes(join(dir, to));
    }
  }
  const cwd = dir ?? join(ROOT, c.cwd ?? '');
  if (c.setup !== undefined) {
    const where = dir;
    assert.ok(where !== undefined, 'a case with a setup needs a temp dir');
    const cli = async (args: readonly string[], opts: { readonly input?: string; readonly expect?: number } = {}): Promise<CliRun> => {
      const r = await skillctlAsync(args, { cwd: where, env: baseEnv(), input: opts.input ?? '' });
      if (r.code !== (opts.expect ?? 0)) throw new Error(`setup: skillctl ${args.join(' ')} exited ${r.code}\n${r.stdout}${r.stderr}`);
      return r;
    };
    await c.setup({ dir: where, cli });
  }
  const env = { ...baseEnv(), ...Object.fromEntries(Object.entries(c.env ?? {}).map(([k, v]) => [k, substitute(v, REPO, dir)])) };
  const input = c.stdin === undefined ? '' : typeof c.stdin === 'string' ? substitute(c.stdin, REPO, dir) : await readFile(join(ROOT, c.stdin.file));
  const run = await skillctlAsync(c.args.map((a) => substitute(a, REPO, dir)), { cwd, env, input });
  // Every SARIF document a case prints is valid SARIF 2.1.0, whatever its golden file says.
  if (c.args.includes('sarif')) assertSarif(run.stdout);
  const n: Normaliser = { paths, version: VERSION, redact: c.redact ?? [] };
  return render(c, { run, files: await fileSections(c, dir, n) }, n);
}

async function readGolden(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * What the suite could change by mistake in the repository: the fixtures, manifests and pins it
 * reads, and what a command run in the root would leave there (an audit log, an archive), ignored
 * files included. The golden files themselves change in update mode.
 */
function repoState(): string | undefined {
  const r = spawnSync('git', ['status', '--porcelain=v1', '--untracked-files=all', '--ignored', '--', 'fixtures', 'manifests', 'pins', 'schemas', '.skillctl', ':(glob)*.tgz', ':(glob)*.skill', ':(exclude)fixtures/cli-golden'], { cwd: ROOT, encoding: 'utf8' });
  return r.status === 0 ? r.stdout : undefined;
}

describe('CLI golden files', () => {
  const temps: string[] = [];
  let stateBefore: string | undefined;
  before(() => {
    stateBefore = repoState();
  });
  after(async () => {
    await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
  });

  describe('cases', { concurrency: CONCURRENCY }, () => {
    for (const c of CASES) {
      const name = caseName(c);
      it(name, async () => {
        const actual = await runCase(c, temps);
        const file = join(GOLDEN_DIR, `${name}.golden`);
        const expected = await readGolden(file);
        if (UPDATE) {
          if (expected !== actual) {
            await mkdir(GOLDEN_DIR, { recursive: true });
            await writeFile(file, actual);
          }
          return;
        }
        if (expected === undefined) assert.fail(`no golden file fixtures/cli-golden/${name}.golden; to create it: SKILLCTL_UPDATE_GOLDEN=1 node scripts/test.mjs --no-lint test/cli/golden.test.js`);
        try {
          assert.equal(actual, expected);
        } catch (err) {
          throw new Error(`output differs from fixtures/cli-golden/${name}.golden (${UPDATE_HINT})\n${err instanceof Error ? err.message : String(err)}`);
        }
      });
    }
  });

  describe('the golden directory', () => {
    const names = CASES.map(caseName);

    it('names every case uniquely, with a file name that fits every file system', () => {
      const seen = new Set<string>();
      const dupes = names.filter((n) => (seen.has(n) ? true : (seen.add(n), false)));
      assert.deepEqual(dupes, [], 'cases with the same name: give one a label');
      assert.deepEqual(names.filter((n) => Buffer.byteLength(`${n}.golden`) > 200), [], 'name too long for a file name: shorten the arguments');
    });

    it('has no golden file without a case', async () => {
      const known = new Set(names.map((n) => `${n}.golden`));
      const files = await readdir(GOLDEN_DIR).catch((): string[] => []);
      const stale = files.filter((f) => f.endsWith('.golden') && !known.has(f)).sort();
      if (UPDATE) {
        await Promise.all(stale.map((f) => rm(join(GOLDEN_DIR, f))));
        return;
      }
      assert.deepEqual(stale, [], `stale golden files in fixtures/cli-golden (no case has their name; delete them, or run in update mode)`);
    });

    it('leaves the repository as it was', (t) => {
      const now = repoState();
      if (stateBefore === undefined || now === undefined) {
        t.skip('not a git checkout');
        return;
      }
      assert.equal(now, stateBefore);
    });
  });
});
