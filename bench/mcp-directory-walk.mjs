#!/usr/bin/env node
// A walk of every directory of one skill over `skillctl mcp --skills` (issue 23): the skill holds
// N sibling directories of one file each; the client reads the skill's root (all its pages), then
// each directory with `resources/directory/read`, 16 requests in flight as `pull skill://` keeps.
// Reported per size: the walk's wall time and the server's CPU time (user and system, from
// /proc), and the time a read. What it watches: a directory read checks the skill's whole shape,
// so unless reads share that check a walk costs the square of the directories. No target; the
// figures are in docs/performance.md. Usage: node bench/mcp-directory-walk.mjs [sizes, default 1000,2500,10000]
// With BEFORE=<another checkout, built>, its `skillctl mcp` walks the same skill first, side by side.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'skillctl.js');
const BUILDS = [...(process.env.BEFORE ? [{ name: 'before', bin: join(process.env.BEFORE, 'bin', 'skillctl.js') }] : []), { name: process.env.BEFORE ? 'after' : 'this build', bin: BIN }];
const SIZES = (process.argv[2] ?? '1000,2500,10000').split(',').map(Number);
const IN_FLIGHT = 16;

function skill(n) {
  const dir = mkdtempSync(join(tmpdir(), 'skillctl-bench-directory-walk-'));
  const root = join(dir, 'skills', 'wide');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'SKILL.md'), '---\nname: wide\ndescription: A skill of many directories. Use when measuring a walk.\n---\n\n# wide\n');
  for (let i = 0; i < n; i++) {
    mkdirSync(join(root, `d${i}`));
    writeFileSync(join(root, `d${i}`, 'f.md'), `${i}\n`);
  }
  return dir;
}

/** The server's user and system CPU time so far, in ms (clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function walk(dir, bin) {
  const child = spawn(process.execPath, [bin, 'mcp', '--no-audit', '--skills', join(dir, 'skills')], { cwd: dir, stdio: ['pipe', 'pipe', 'ignore'] });
  const pending = new Map();
  let buf = '';
  let id = 1;
  child.stdout.on('data', (chunk) => {
    buf += chunk;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const m = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      pending.get(m.id)?.(m);
      pending.delete(m.id);
    }
  });
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const i = id++;
      pending.set(i, (m) => (m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result)));
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: i, method, params })}\n`);
    });
  await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  const cpu0 = cpuMs(child.pid);
  const t0 = performance.now();
  const dirs = [];
  let cursor;
  do {
    const page = await request('resources/directory/read', cursor ? { uri: 'skill://wide', cursor } : { uri: 'skill://wide' });
    for (const r of page.resources) if (r.mimeType === 'inode/directory') dirs.push(r.uri);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  let next = 0;
  const reader = async () => {
    while (next < dirs.length) {
      const uri = dirs[next++];
      const page = await request('resources/directory/read', { uri });
      if (page.resources.length !== 1) throw new Error(`${uri}: ${page.resources.length} children, not 1`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, reader));
  const wall = performance.now() - t0;
  const cpu = cpuMs(child.pid) - cpu0;
  child.kill();
  return { reads: dirs.length + 1, wall, cpu };
}

console.log('| build | directories | walk (wall) | server CPU | a read |');
console.log('|---|---|---|---|---|');
for (const n of SIZES) {
  const dir = skill(n);
  // The files settle (served-walk.ts: a file changed within 2 s is never kept), as they would on a real server.
  await sleep(2500);
  for (const b of BUILDS) {
    const r = await walk(dir, b.bin);
    console.log(`| ${b.name} | ${n.toLocaleString('en')} | ${(r.wall / 1000).toFixed(2)} s | ${(r.cpu / 1000).toFixed(2)} s | ${(r.wall / r.reads).toFixed(2)} ms |`);
  }
  rmSync(dir, { recursive: true, force: true });
}
