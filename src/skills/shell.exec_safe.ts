/**
 * shell.exec_safe: runs one command the host policy allows, as argv (never through a shell), in
 * a working directory the policy lets the skill read, inside the run's sandbox (bubblewrap: only
 * the granted paths exist for the command), with the scrubbed environment, a time budget that
 * kills the whole process group, and bounded stdout and stderr. docs/skills/shell.exec_safe.md.
 */
import { stat } from 'node:fs/promises';
import type { BuiltinSkill } from '../core/run/index.js';
import { childEnv } from './lib/env.js';
import { bound, denied, fail, fitOutput, ok, runSkill, str, strList, RequestError } from './lib/outcome.js';
import { spawnConfined } from './lib/confined.js';
import { dropPartialUtf8, lenientUtf8, utf8Prefix } from './lib/text.js';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 65_536;

export const shellExecSafe: BuiltinSkill = {
  id: 'shell.exec_safe',
  run: (input, ctx) =>
    runSkill(input, async (req) => {
      const argv = strList(req, 'argv', []);
      if (argv.length === 0 || argv[0] === '') throw new RequestError('/argv', '`argv` must name a command');
      if (argv.some((a) => a.includes('\u0000'))) throw new RequestError('/argv', 'an argument contains NUL');
      const cwd = str(req, 'cwd', '.');
      const timeoutMs = bound(req, 'timeout_ms', DEFAULT_TIMEOUT_MS, ctx.limits.timeoutMs);
      const maxOutput = bound(req, 'max_output_bytes', DEFAULT_MAX_OUTPUT_BYTES, ctx.limits.maxOutputBytes);

      const exec = await ctx.policy.checkExec(argv);
      if (!exec.allowed) return denied(exec, `exec ${argv[0]}`);
      const dir = await ctx.policy.checkRead(cwd);
      if (!dir.allowed) return denied(dir, `cwd ${cwd}`);
      try {
        if (!(await stat(dir.resolved)).isDirectory()) return fail('SKILL_NOT_A_DIRECTORY', `cwd ${cwd} is not a directory`);
      } catch {
        return fail('SKILL_FILE_NOT_FOUND', `cwd ${cwd} does not exist`);
      }

      // The policy's paths hold for the command too: it runs where only they exist.
      const run = await spawnConfined(ctx, exec.resolved, argv.slice(1), {
        cwd: dir.resolved,
        env: childEnv(ctx),
        timeoutMs,
        maxStdout: maxOutput,
        maxStderr: maxOutput,
        signal: ctx.signal,
      });
      if (run.kind === 'no-sandbox') return run.outcome;
      if (run.kind === 'not-started') return fail('SKILL_EXEC_FAILED', `${argv[0]} could not be started (${run.reason})`);
      const r = run.result;
      const stdout = r.stdoutTruncated ? dropPartialUtf8(r.stdout) : r.stdout;
      const stderr = r.stderrTruncated ? dropPartialUtf8(r.stderr) : r.stderr;
      const response = (n: number): Record<string, unknown> => ({
        exit_code: r.exitCode ?? 128 + (r.signal !== null ? (process.getBuiltinModule('node:os').constants.signals[r.signal] ?? 0) : 0),
        stdout: lenientUtf8(utf8Prefix(stdout, n)),
        stderr: lenientUtf8(utf8Prefix(stderr, n)),
        stdout_truncated: r.stdoutTruncated || stdout.length > n,
        stderr_truncated: r.stderrTruncated || stderr.length > n,
        duration_ms: r.durationMs,
      });
      // Both streams cut further when the response (escaped as JSON) would not fit the host's output cap.
      const longest = Math.max(stdout.length, stderr.length);
      const result = fitOutput(ctx.limits.maxOutputBytes, longest, response) ?? response(longest);
      if (r.timedOut || r.aborted) {
        const why = r.timedOut ? `ran longer than ${timeoutMs} ms` : 'was cancelled';
        return fail('SKILL_TIMED_OUT', `${argv[0]} ${why} and its process group was killed`, result);
      }
      return ok(result);
    }),
};
