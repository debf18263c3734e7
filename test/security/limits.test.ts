// Threat: resource exhaustion. A built-in given work that never ends (a schema whose anyOf
// branches double at every level of the value, a document nested 300,000 deep, a patch of 20,000
// hunks) is stopped at max_execution_time, whatever it is doing, and a patch stopped on its way
// leaves the tree as it was. A built-in that allocates past max_memory is stopped too. A process
// skill that writes 1 GB to stdout or allocates without bound, under bubblewrap or not, is stopped
// at its cap, and nothing it started is left running; a command of shell.exec_safe that floods
// stdout is cut at max_output_bytes.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { before, describe, it } from 'node:test';
import { defaultPolicy } from '../../src/core/policy/index.js';
import { runSkill, type BuiltinThread, type BuiltinWorkers } from '../../src/core/run/index.js';
import { attackRows, runTarget, scratch, type Attack, type Ran } from '../helpers/attack.js';
import { skillctlAsync, json } from '../helpers/cli.js';
import { processesWith } from '../helpers/procs.js';
import { ROOT } from '../helpers/paths.js';
import { snapshot } from '../helpers/project.js';
import { tempDir } from '../helpers/tmp.js';
import { FIXED_CLOCK } from '../helpers/run.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { PYTHON_VERSION } from '../helpers/fs-tool.js';

interface RunDoc {
  status: string;
  exit_code: number;
  diagnostics: { code: string; severity: string }[];
}
const errors = (d: RunDoc): string[] => [...new Set(d.diagnostics.filter((x) => x.severity === 'error').map((x) => x.code))].sort();

/** The wall-clock bound a stopped run must finish within: the cap, the stop grace, start-up, a loaded machine. */
const HANG_GUARD_MS = 20_000;

describe('threat: resource exhaustion (limits that stop)', () => {
  const tmp = tempDir('skillctl-limits-');
  let root: string;
  let policy: string;

  before(async () => {
    root = realpathSync(tmp);
    await mkdir(join(root, '.git'));
    await mkdir(join(root, 'work'));
    policy = join(root, 'capped.policy.yaml');
    await writeFile(policy, 'version: 1\npermissions:\n  fs.read: [.]\n  fs.write: [work]\nlimits:\n  max_execution_time: 2s\n');
  });

  async function timed(skill: string, input: unknown): Promise<{ doc: RunDoc; code: number; ms: number }> {
    const t0 = Date.now();
    const r = await skillctlAsync(['run', skill, '--policy', policy, '--input', '-', '--json', '--no-audit'], { cwd: root, input: JSON.stringify(input), timeoutMs: 60_000 });
    return { doc: json<RunDoc>(r), code: r.code, ms: Date.now() - t0 };
  }

  it('json.validate: two anyOf branches at each of 40 levels (2^40 checks) are stopped at the 2 s cap (RUN_TIMEOUT, exit 124)', async () => {
    // Both branches fail only at the innermost value, so every path through the levels is tried.
    const both = { type: 'array', items: { $ref: '#/$defs/x' } };
    const schema = { $defs: { x: { anyOf: [both, { ...both, minItems: 1 }] } }, $ref: '#/$defs/x' };
    const r = await timed('json.validate', { json: `${'['.repeat(40)}1${']'.repeat(40)}`, schema });
    assert.deepEqual([r.code, r.doc.status, errors(r.doc)], [124, 'timeout', ['RUN_TIMEOUT']]);
    assert.ok(r.ms < HANG_GUARD_MS, `stopped after ${r.ms} ms`);
  });

  it('json.validate: uniqueItems over 30,000 distinct objects is answered in one pass (ajv compared every pair)', async () => {
    const items = Array.from({ length: 30_000 }, (_, i) => ({ id: i, pad: 'x' }));
    const r = await timed('json.validate', { json: JSON.stringify(items), schema: { type: 'array', uniqueItems: true } });
    assert.deepEqual([r.code, r.doc.status], [0, 'ok'], JSON.stringify(r.doc).slice(0, 2000));
    assert.ok(r.ms < HANG_GUARD_MS, `answered after ${r.ms} ms`);
  });

  it('extract.text: 240,000 nested elements (the most a request holds) are stopped at the cap or answered, never left running', async () => {
    const html = '<div>'.repeat(240_000) + 'x' + '</div>'.repeat(240_000);
    const r = await timed('extract.text', { content_type: 'text/html', bytes_b64: Buffer.from(html).toString('base64') });
    assert.ok(r.code === 124 || r.code === 0 || r.code === 2, JSON.stringify(r.doc));
    assert.ok(!errors(r.doc).includes('INTERNAL'));
    assert.ok(r.ms < HANG_GUARD_MS, `finished after ${r.ms} ms`);
  });

  it('fs.write_patch: 20,000 hunks, stopped at the cap, leave the tree as it was', async () => {
    const lines = Array.from({ length: 40_000 }, (_, i) => `line ${i}`);
    await writeFile(join(root, 'work', 'big.txt'), lines.join('\n') + '\n');
    const hunks = Array.from({ length: 20_000 }, (_, h) => `@@ -${2 * h + 1},1 +${2 * h + 1},1 @@\n-line ${2 * h}\n+LINE ${2 * h}\n`).join('');
    const before = await snapshot(join(root, 'work'));
    const r = await timed('fs.write_patch', { base: 'work', unified_diff: `--- a/big.txt\n+++ b/big.txt\n${hunks}` });
    assert.ok(r.ms < HANG_GUARD_MS, `finished after ${r.ms} ms`);
    if (r.code !== 0) {
      assert.equal(r.code, 124, JSON.stringify(r.doc));
      assert.deepEqual(await snapshot(join(root, 'work')), before, 'a stopped patch changed nothing');
    }
  });

  it('fs.write_patch creating 4,000 files: either all of them, or (stopped) none and no temporary file', async () => {
    const dir = join(root, 'work', 'many');
    await mkdir(dir);
    const diff = Array.from({ length: 4_000 }, (_, i) => `--- /dev/null\n+++ b/f${i}/new.txt\n@@ -0,0 +1 @@\n+file ${i}\n`).join('');
    const r = await timed('fs.write_patch', { base: 'work/many', unified_diff: diff });
    const made = await readdir(dir, { recursive: true });
    if (r.code === 0) {
      assert.equal(made.filter((f) => f.endsWith('new.txt')).length, 4_000);
    } else {
      assert.equal(r.code, 124, JSON.stringify(r.doc));
      assert.deepEqual(made, [], 'nothing written, no directory or temporary file left');
    }
  });

  it('max_memory holds for the whole run: six children of 150 MiB under a 128 MiB cap end it (RUN_MEMORY_LIMIT, exit 1)', async () => {
    const child = "const a=[];for(let j=0;j<150;j++)a.push(Buffer.alloc(1024*1024,1));setTimeout(()=>{},8000)";
    await writeBundle(join(root, 'six'), {
      entrypoints: [entry({ runtime: 'node', runtime_version: process.version.slice(1), command: 'node main.js', runtime_limits: { max_memory: 128, max_execution_time: 60 }, requested_permissions: { exec: ['node'] } })],
      files: { 'main.js': `const {spawn}=require('child_process');for(let i=0;i<6;i++)spawn(process.execPath,['-e',${JSON.stringify(child)}],{stdio:'ignore'});setTimeout(()=>process.stdout.write('{}'),6000)` },
    });
    await writeFile(join(root, 'node.policy.yaml'), 'version: 1\npermissions:\n  exec: [node]\n');
    for (const sandbox of ['bwrap', 'none']) {
      const r = await skillctlAsync(['run', './six', '--policy', 'node.policy.yaml', '--sandbox', sandbox, '--json', '--audit', join(root, `six-${sandbox}.jsonl`)], { cwd: root, timeoutMs: 60_000 });
      const caps = (JSON.parse((await readFile(join(root, `six-${sandbox}.jsonl`), 'utf8')).trim().split('\n').pop() as string) as { result: { caps: unknown } }).result.caps;
      if ((caps as { memory: string }).memory === 'run') {
        assert.deepEqual([r.code, json<RunDoc>(r).status, errors(json<RunDoc>(r))], [1, 'memory_limit', ['RUN_MEMORY_LIMIT']], sandbox);
      } else {
        // No cgroup on this host: the record says the cap held per process only (docs/security.md).
        assert.deepEqual(caps, { memory: 'process', processes: 'none' });
      }
    }
  });

  it('a fork storm stops at the run\'s process count, and nothing it started survives the run', async () => {
    await writeBundle(join(root, 'storm'), {
      entrypoints: [entry({ runtime: 'node', runtime_version: process.version.slice(1), command: 'node main.js', runtime_limits: { max_execution_time: 10 }, requested_permissions: { exec: ['sleep'] } })],
      files: {
        'main.js': "const {spawn}=require('child_process');let ok=0,refused=0,left=600;for(let i=0;i<600;i++){const c=spawn('sleep',['161.8'],{stdio:'ignore'});c.on('spawn',()=>{ok++;if(--left===0)done()});c.on('error',()=>{refused++;if(--left===0)done()})}function done(){process.stdout.write(JSON.stringify({ok:ok+'/'+refused}))}",
      },
    });
    await writeFile(join(root, 'sleep.policy.yaml'), 'version: 1\npermissions:\n  exec: [sleep]\n');
    const r = await skillctlAsync(['run', './storm', '--policy', 'sleep.policy.yaml', '--sandbox', 'bwrap', '--json', '--audit', join(root, 'storm.jsonl')], { cwd: root, timeoutMs: 50_000 });
    const caps = (JSON.parse((await readFile(join(root, 'storm.jsonl'), 'utf8')).trim().split('\n').pop() as string) as { result: { caps: { processes: string } } }).result.caps;
    // Past the process count, node itself cannot start threads and may stall: the time limit ends it (124).
    assert.ok(r.code === 0 || r.code === 124, r.stdout);
    if (caps.processes === 'run' && r.code === 0) {
      const [started] = (json<{ output: { ok: string } }>(r).output.ok.split('/').map(Number)) as [number];
      assert.ok(started < 600, `the run held ${started} processes at once`);
    }
    for (let i = 0; i < 100 && processesWith('sleep 161.8').length > 0; i++) await new Promise((res) => setTimeout(res, 50));
    assert.deepEqual(processesWith('sleep 161.8'), [], 'nothing the run started survives it');
  });

  it('a built-in that allocates past max_memory is stopped (RUN_MEMORY_LIMIT), its thread gone', async () => {
    const dir = join(root, 'hog');
    await writeBundle(dir, { entrypoints: [entry({ command: 'builtin:test.hog', runtime_limits: { max_memory: 64, max_execution_time: 30 } })] });
    const hostScript = join(ROOT, 'dist', 'test', 'helpers', 'hog-worker.js');
    const workers: BuiltinWorkers = {
      has: (id) => id === 'test.hog',
      start: (resourceLimits) => new Worker(hostScript, { resourceLimits }) as unknown as BuiltinThread,
    };
    const t0 = Date.now();
    const r = await runSkill({ target: dir }, { cwd: root, env: { PATH: process.env.PATH ?? '' }, policy: defaultPolicy(root), clock: FIXED_CLOCK, builtins: workers, skillctlVersion: 'test' });
    assert.deepEqual([r.status, r.exitCode], ['memory_limit', 1]);
    assert.ok(r.diagnostics.some((d) => d.code === 'RUN_MEMORY_LIMIT'));
    assert.deepEqual(r.record.result.caps, { memory: 'thread', processes: 'none' });
    assert.ok(Date.now() - t0 < HANG_GUARD_MS);
  });
});

const OK = { type: 'object', properties: { ok: { type: 'string' } } };
/** The flood's command line, by which a survivor would be found. */
const FLOOD = 'head -c 1073741824 /dev/zero';

const floods: Attack[] = (['bwrap', 'none'] as const).flatMap((sandbox): Attack[] => [
  {
    what: `--sandbox ${sandbox}: a shell skill writes 1 GB to stdout (stopped at max_output_bytes, discarded, nothing left running)`,
    code: 'RUN_OUTPUT_LIMIT',
    exit: 1,
    attempt: (sc) => runTarget('./bundles/flood', {}, { cwd: sc.work, sandbox }),
    check: (r) => {
      assert.equal(r.output, null);
      assert.deepEqual(processesWith(FLOOD), []);
    },
  },
  ...['node', 'python'].map(
    (lang): Attack => ({
      what: `--sandbox ${sandbox}: a ${lang} skill allocates without bound (stopped at max_memory)`,
      code: 'RUN_MEMORY_LIMIT',
      exit: 1,
      attempt: (sc): Promise<Ran> => runTarget(`./bundles/alloc-${lang}`, {}, { cwd: sc.work, sandbox }),
    }),
  ),
]);
floods.push({
  what: 'shell.exec_safe runs a command that writes 1 GB to stdout (cut at max_output_bytes)',
  code: null,
  exit: 0,
  attempt: (sc) => runTarget('shell.exec_safe', { argv: FLOOD.split(' '), max_output_bytes: 4096 }, { cwd: sc.work, policy: 'head.policy.yaml' }),
  check: (r) => {
    const out = r.output as { stdout: string; stdout_truncated: boolean };
    assert.deepEqual([out.stdout.length, out.stdout_truncated], [4096, true]);
    assert.deepEqual(processesWith(FLOOD), []);
  },
});

describe('resource exhaustion: floods and allocations of process skills, through skillctl run', () => {
  const s = scratch('skillctl-attack-limits-');
  before(async () => {
    const b = (name: string): string => join(s.work, 'bundles', name);
    const limits = { max_memory: '96MiB', max_output_bytes: '1MiB', max_execution_time: '60s' };
    await writeBundle(b('flood'), {
      entrypoints: [entry({ runtime: 'shell', runtime_version: 'sh@1', command: './run.sh', output_schema: OK, runtime_limits: limits })],
      files: { 'run.sh': `#!/bin/sh\nexec ${FLOOD}\n` },
      executable: ['run.sh'],
    });
    await writeBundle(b('alloc-node'), {
      entrypoints: [entry({ runtime: 'node', runtime_version: process.version.slice(1), command: 'node main.js', output_schema: OK, runtime_limits: limits })],
      files: { 'main.js': 'const a=[];for(;;)a.push(Buffer.alloc(1<<20,1));\n' },
    });
    await writeBundle(b('alloc-python'), {
      entrypoints: [entry({ runtime: 'python', runtime_version: PYTHON_VERSION, command: 'python3 main.py', output_schema: OK, runtime_limits: limits })],
      files: { 'main.py': 'x = []\nwhile True:\n    x.append(bytearray(1 << 20))\n' },
    });
    await writeFile(join(s.work, 'head.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n  exec: [head]\n');
  });

  attackRows(floods, s);
});
