/**
 * search.ripgrep with ripgrep: `rg --json` with the options that make it walk exactly as the
 * fallback does (only .gitignore files inside the searched tree, no .ignore/.rgignore, global
 * or parent ignore files, no config file, sorted by path, binary files and non-UTF-8 lines
 * dropped). Its output is parsed as it streams, and rg is stopped once the bound is reached.
 */
import { posix, resolve } from 'node:path';
import type { BuiltinContext, BuiltinOutcome } from '../../core/run/index.js';
import { childEnv } from './env.js';
import { denied, fail } from './outcome.js';
import { spawnConfined } from './confined.js';
import { makeMatch, type Collector, type SearchMatch } from './search.js';
import type { SearchRoot } from './search-js.js';
import { lenientUtf8 } from './text.js';
import { pushAll } from '../../core/findings.js';

interface RgText {
  readonly text?: string;
  readonly bytes?: string;
}
interface RgMessage {
  readonly type: string;
  readonly data: {
    readonly path?: RgText;
    readonly lines?: RgText;
    readonly line_number?: number;
    readonly submatches?: readonly { readonly start: number; readonly end: number }[];
    readonly binary_offset?: number | null;
  };
}

export function ripgrepArgs(rust: string, caseSensitive: boolean, globs: readonly string[], roots: readonly SearchRoot[]): string[] {
  return [
    '--json',
    '--no-config',
    '--sort',
    'path',
    '--no-mmap',
    '--encoding',
    'none',
    '--no-ignore-dot',
    '--no-ignore-exclude',
    '--no-ignore-global',
    '--no-ignore-parent',
    '--no-require-git',
    '--no-messages',
    '--max-filesize',
    '16M',
    caseSensitive ? '--case-sensitive' : '--ignore-case',
    ...globs.flatMap((g) => ['--glob', g]),
    '-e',
    rust,
    '--',
    ...roots.map((r) => r.display),
  ];
}

/** The matches of one `match` message: byte offsets turned into positions in the line's text. */
function matchesOf(file: string, msg: RgMessage): SearchMatch[] {
  const text = msg.data.lines?.text;
  if (text === undefined || msg.data.line_number === undefined) return []; // not UTF-8: dropped
  const line = text.endsWith('\n') ? text.slice(0, -1) : text;
  const bytes = Buffer.from(line, 'utf8');
  const at = (b: number): number => bytes.subarray(0, b).toString('utf8').length;
  return (msg.data.submatches ?? [])
    .filter((s) => s.end > s.start)
    .map((s) => makeMatch(file, msg.data.line_number as number, line, at(s.start), at(s.end)));
}

/**
 * Runs the search with rg. Returns 'unavailable' when the policy does not allow rg, it cannot
 * start, or the run's sandbox cannot be set up (the caller falls back), an outcome for a denial
 * or failure, or undefined when done.
 */
export async function searchWithRipgrep(
  ctx: BuiltinContext,
  cwd: string,
  args: readonly string[],
  relativeRoots: boolean,
  collector: Collector,
): Promise<BuiltinOutcome | 'unavailable' | undefined> {
  // rg is optional: refused or not installed, the built-in search gives the same results, so the
  // refusal is recorded as a fallback and the run stays allowed.
  const decision = await ctx.policy.checkExec(['rg', ...args], { fallback: 'the built-in search' });
  if (!decision.allowed) return 'unavailable';
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  let file: string | undefined;
  let current: SearchMatch[] = [];
  let summary = false;
  let full = false;
  const handle = (line: string): void => {
    if (line === '' || full) return;
    let msg: RgMessage;
    try {
      msg = JSON.parse(line) as RgMessage;
    } catch {
      return; // not a message of rg's JSON protocol
    }
    if (msg.type === 'begin') {
      const p = msg.data.path?.text;
      file = p === undefined ? undefined : posix.normalize(p.replace(/^(?:\.\/)+/, ''));
      current = [];
    } else if (msg.type === 'match' && file !== undefined) {
      pushAll(current, matchesOf(file, msg));
    } else if (msg.type === 'end') {
      // A file with a NUL byte is binary: whatever rg printed before it saw the NUL is dropped.
      if (file !== undefined && (msg.data.binary_offset === null || msg.data.binary_offset === undefined) && !collector.addFile(current)) full = true;
      file = undefined;
      current = [];
    } else if (msg.type === 'summary') {
      summary = true;
    }
  };
  // rg runs in the run's sandbox, started in `cwd` when a root is shown relative to it (the
  // sandbox then holds `cwd`, at least as the parent of that root) and in / when every root is
  // absolute (`cwd` may then lie outside the grants, where the sandbox has nothing).
  const run = await spawnConfined(ctx, decision.resolved, args, {
    cwd: relativeRoots ? cwd : '/',
    env: childEnv(ctx, (name) => name.startsWith('RIPGREP_')),
    timeoutMs: ctx.limits.timeoutMs,
    maxStdout: 0,
    maxStderr: 4096,
    signal: ctx.signal,
    onStdout: (chunk) => {
      pending += decoder.decode(chunk, { stream: true });
      let nl = pending.indexOf('\n');
      while (nl !== -1 && !full) {
        handle(pending.slice(0, nl));
        pending = pending.slice(nl + 1);
        nl = pending.indexOf('\n');
      }
      return full;
    },
  });
  // Not started, or no sandbox to start it in: the in-process search, under the gate, does it.
  if (run.kind !== 'ran') return 'unavailable';
  const r = run.result;
  if (r.timedOut || r.aborted) return fail('SKILL_TIMED_OUT', 'the search ran out of time');
  if (!r.stopped && !summary) {
    const why = lenientUtf8(r.stderr).trim().split('\n')[0] ?? '';
    return fail('SKILL_EXEC_FAILED', `rg failed (exit ${r.exitCode ?? 'signal'}): ${why}`);
  }
  // Each file that contributed a match is a read the policy must allow.
  for (const f of [...new Set(collector.matches.map((m) => m.file))]) {
    const check = await ctx.policy.checkRead(resolve(cwd, f));
    if (!check.allowed) return denied(check, `read ${f}`);
  }
  return undefined;
}
