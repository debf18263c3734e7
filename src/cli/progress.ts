import type { Context } from './context.js';

export interface Progress {
  tick(done: number, total: number): void;
  /** Clears the progress line, if one was drawn. */
  end(): void;
}

/**
 * A progress line on stderr, only when stderr is a terminal (never in pipes, CI logs or --json
 * runs) and only once the work has taken more than `afterMs`, so quick runs print nothing.
 */
export function progressLine(ctx: Context, label: string, now: () => number = () => performance.now(), afterMs = 500): Progress {
  const tty = ctx.io.stderr.isTTY === true && !ctx.opts.json && !ctx.opts.quiet;
  const started = now();
  let last = -Infinity;
  let shown = false;
  return {
    tick: (done, total) => {
      const t = now();
      if (!tty || t - started < afterMs || (t - last < 100 && done !== total)) return;
      last = t;
      shown = true;
      ctx.io.stderr.write(`\r${label} ${done}/${total}`);
    },
    end: () => {
      if (shown) ctx.io.stderr.write('\r\u001b[2K');
    },
  };
}
