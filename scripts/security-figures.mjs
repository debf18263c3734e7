#!/usr/bin/env node
// The attack suite's figures, counted by the suite itself: runs test/security (or reads the TAP of
// the last `npm test` with --from-last-run), groups every attack (a leaf test) by its threat (the
// `// Threat: ...` line opening its test file), and prints the table docs/security.md carries.
// `--write` replaces the table between the markers in docs/security.md, so the doc's numbers are
// regenerated, never typed.
//
//   node scripts/security-figures.mjs [--from-last-run] [--write]
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const TAP = join(root, 'dist', 'test-results', 'results.tap');
const DOC = join(root, 'docs', 'security.md');
const START = '<!-- security-figures:start -->';
const END = '<!-- security-figures:end -->';

if (!args.includes('--from-last-run')) {
  // The suite alone: builds are the caller's business (npm test builds; so does scripts/test.mjs without --no-build).
  spawnSync(process.execPath, [join(root, 'scripts', 'test.mjs'), '--no-lint', 'test/security'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * Threat names by top-level suite: every `describe(` at the start of a line in a test file of
 * the suite maps to that file's `// Threat: <name>.` line. Suites, not file names, because
 * node 20's TAP output does not say which file a test came from.
 */
function threats() {
  const out = new Map();
  for (const f of readdirSync(join(root, 'test', 'security')).filter((n) => n.endsWith('.test.ts'))) {
    const text = readFileSync(join(root, 'test', 'security', f), 'utf8');
    // A threat may run over several comment lines: one line of the table. Its sentence ends at a
    // full stop before a space or a line's end, not at one inside a name (`.claude/skills`).
    const threat = /^\/\/ Threat: ([\s\S]+?)\.(?=\s|$)/m.exec(text)?.[1].replace(/\s*\n\/\/\s*/g, ' ').trim() ?? f.replace(/\.test\.ts$/, '');
    // A name may hold its own quote, escaped (`'a built-in\\'s program'`).
    for (const m of text.matchAll(/^describe\((['"`])((?:\\.|(?!\1).)*)\1/gm)) out.set(m[2].replace(/\\(.)/g, '$1'), threat);
  }
  return out;
}

/** Leaf tests of the TAP output that ran: each `ok`/`not ok` whose YAML block is not a suite's, with its top-level suite and error. */
function leaves(tap) {
  const lines = tap.split('\n');
  const out = [];
  let suite = '';
  for (let i = 0; i < lines.length; i++) {
    const top = /^# Subtest: (.*)$/.exec(lines[i]);
    if (top !== null) suite = top[1];
    const m = /^(\s*)(ok|not ok) \d+ - (.*)$/.exec(lines[i]);
    // A skipped attack was not tried (it says why); it is neither held nor an escape.
    if (m === null || / # (SKIP|TODO)\b/.test(m[3])) continue;
    const block = [];
    for (let j = i + 1; j < lines.length && !/^\s*\.\.\.$/.test(lines[j]); j++) block.push(lines[j]);
    const yaml = block.join('\n');
    if (/type: 'suite'/.test(yaml)) continue;
    out.push({ ok: m[2] === 'ok', name: m[3], suite, error: /error: ([\s\S]*?)(?:\n\s+code:|$)/.exec(yaml)?.[1] ?? '' });
  }
  return out;
}

const names = threats();
const rows = new Map();
for (const t of leaves(readFileSync(TAP, 'utf8'))) {
  // Suites of other folders (the TAP of a whole `npm test`) are not attacks.
  const threat = names.get(t.suite);
  if (threat === undefined) continue;
  const r = rows.get(threat) ?? { tried: 0, held: 0, escapes: 0, crashes: 0, hangs: 0 };
  r.tried++;
  if (t.ok) r.held++;
  else if (/INTERNAL|stack size|TypeError|RangeError/.test(t.error)) r.crashes++;
  else if (/timed out|hang|ETIMEDOUT|cancelled/i.test(t.error)) r.hangs++;
  else r.escapes++;
  rows.set(threat, r);
}
const total = { tried: 0, held: 0, escapes: 0, crashes: 0, hangs: 0 };
const table = ['| threat | attacks tried | held | escapes | crashes | hangs |', '|---|---|---|---|---|---|'];
for (const [threat, r] of [...rows].sort(([a], [b]) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1))) {
  table.push(`| ${threat} | ${r.tried} | ${r.held} | ${r.escapes} | ${r.crashes} | ${r.hangs} |`);
  for (const k of Object.keys(total)) total[k] += r[k];
}
table.push(`| **all** | **${total.tried}** | **${total.held}** | **${total.escapes}** | **${total.crashes}** | **${total.hangs}** |`);
const text = table.join('\n');
process.stdout.write(`${text}\n`);

if (args.includes('--write')) {
  const doc = readFileSync(DOC, 'utf8');
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  if (a === -1 || b === -1) {
    process.stderr.write(`docs/security.md has no ${START} … ${END} markers\n`);
    process.exit(1);
  }
  writeFileSync(DOC, `${doc.slice(0, a + START.length)}\n${text}\n${doc.slice(b)}`);
}
if (total.tried === 0) {
  process.stderr.write('no attack of test/security ran: build first (node scripts/build.mjs)\n');
  process.exit(1);
}
