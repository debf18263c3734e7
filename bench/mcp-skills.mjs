#!/usr/bin/env node
// skills/list over 1,000 skills of 10 files each (issue 23): `skillctl mcp --skills DIR` is started
// and spoken to on stdio. Reported: the cold listing (the server lists and hashes every file at
// start, before it answers initialize: start-up with --skills minus start-up without), the first
// skills/list request, and the median of later ones (digests cached by file identity), all pages
// walked each time. Then one file is edited and the next listing is timed (one file re-hashed).
// Targets: cold within 2 s, later answers within 50 ms (each answer: the first page of a walk,
// which checks every folder again, and each page after it, from that listing's snapshot). Usage: node bench/mcp-skills.mjs [runs]
// With BEFORE=<another checkout, built>, its `skillctl mcp` is measured too, side by side on the
// same corpus, the later listings of the two servers taken in turn (a change in the machine's
// load hits both alike). Under `chrt -f 10` the figures move less with other work on the machine.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'skillctl.js');
const BUILDS = [...(process.env.BEFORE ? [{ name: 'before', bin: join(process.env.BEFORE, 'bin', 'skillctl.js') }] : []), { name: process.env.BEFORE ? 'after' : 'this build', bin: BIN }];
const SKILLS = 1000;
const RUNS = Number(process.argv[2] ?? 21);

function corpus() {
  const dir = mkdtempSync(join(tmpdir(), 'skillctl-bench-mcp-skills-'));
  for (let i = 0; i < SKILLS; i++) {
    const name = `skill-${String(i).padStart(4, '0')}`;
    const d = join(dir, 'skills', name);
    mkdirSync(join(d, 'references'), { recursive: true });
    mkdirSync(join(d, 'scripts'), { recursive: true });
    writeFileSync(join(d, 'SKILL.md'), `---\nname: ${name}\ndescription: Benchmark skill ${i}. Use when measuring skills/list.\n---\n\n# ${name}\n\nSee references/.\n`);
    for (let j = 0; j < 6; j++) writeFileSync(join(d, 'references', `ref-${j}.md`), `# Reference ${j} of ${name}\n\n${'lorem ipsum '.repeat(40 + j)}\n`);
    for (let j = 0; j < 3; j++) writeFileSync(join(d, 'scripts', `step-${j}.py`), `print(${i * 10 + j})\n`);
  }
  return dir;
}

function server(cwd, args, bin) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [bin, 'mcp', '--no-audit', ...args], { cwd, stdio: ['pipe', 'pipe', 'ignore'] });
  let buf = '';
  const waiting = new Map();
  child.stdout.on('data', (c) => {
    buf += c;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const m = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      waiting.get(m.id)?.(m);
    }
  });
  let id = 0;
  const request = (method, params) =>
    new Promise((resolve) => {
      const n = ++id;
      waiting.set(n, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: n, method, ...(params ? { params } : {}) })}\n`);
    });
  return { t0, request, close: () => child.stdin.end() };
}

async function ready(cwd, args, bin) {
  const s = server(cwd, args, bin);
  await s.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } });
  return { ...s, startup: performance.now() - s.t0 };
}

/** A walk of every page: its whole time, and each answer's (the first answer of a walk lists and checks every folder; the others come from that listing's snapshot). */
async function walk(s) {
  const t = performance.now();
  const answers = [];
  let cursor;
  let n = 0;
  do {
    const a = performance.now();
    const r = await s.request('skills/list', cursor ? { cursor } : {});
    answers.push(performance.now() - a);
    n += r.result.skills.length;
    cursor = r.result.nextCursor;
  } while (cursor);
  if (n !== SKILLS) throw new Error(`listed ${n} skills`);
  return { total: performance.now() - t, answers };
}

async function listAll(s) {
  return (await walk(s)).total;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(1)} ms`;

const dir = corpus();
// The server trusts no file time younger than 2 s (a change within the same clock tick would not
// show; src/core/agent-skills/served-walk.ts): a project's files are older than that when its
// server starts, so the corpus is left to settle first.
await new Promise((r) => setTimeout(r, 2500));
try {
  const results = [];
  for (const b of BUILDS) {
    const plain = [];
    for (let i = 0; i < 3; i++) {
      const s = await ready(dir, [], b.bin);
      plain.push(s.startup);
      s.close();
    }
    const s = await ready(dir, ['--skills', 'skills'], b.bin);
    results.push({ b, s, plain: median(plain), cold: s.startup - median(plain), first: await listAll(s), later: [] });
  }
  for (let i = 0; i < RUNS; i++) {
    for (const r of results) {
      const w = await walk(r.s);
      r.later.push(w.total);
      (r.firstAnswers ??= []).push(w.answers[0]);
      (r.pageAnswers ??= []).push(...w.answers.slice(1));
    }
  }
  writeFileSync(join(dir, 'skills', 'skill-0500', 'references', 'ref-0.md'), '# edited\n');
  for (const r of results) {
    r.afterEdit = await listAll(r.s);
    r.s.close();
  }
  console.log(`skills/list, ${SKILLS} skills x 10 files (${SKILLS / 200} pages), node ${process.version}`);
  for (const r of results) {
    console.log(`${r.b.name} (${r.b.bin})`);
    console.log(`  start-up without --skills (median of 3)  ${ms(r.plain)}`);
    console.log(`  cold: list and hash at start (target < 2000 ms)  ${ms(r.cold)}`);
    console.log(`  first skills/list request  ${ms(r.first)}`);
    console.log(`  later walks of every page, median of ${RUNS}  ${ms(median(r.later))}  (min ${ms(Math.min(...r.later))}, max ${ms(Math.max(...r.later))})`);
    console.log(`  later answers (target < 50 ms): first page of a walk (lists and checks every folder) ${ms(median(r.firstAnswers))} (max ${ms(Math.max(...r.firstAnswers))}); each further page ${ms(median(r.pageAnswers))} (max ${ms(Math.max(...r.pageAnswers))})`);
    console.log(`  after one file was edited  ${ms(r.afterEdit)}`);
  }
  if (results.length === 2) console.log(`later listings, after / before: ${(median(results[1].later) / median(results[0].later)).toFixed(2)}x`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
