/**
 * At most `limit` calls of `fn` in flight; the others wait their turn, in arrival order.
 *
 * The threat: an agent, or a prompt that steers one, sends tool calls in a burst, and each call
 * runs a skill (a worker thread, or a process tree under its own memory cap). Unbounded, a burst
 * of a thousand calls is a thousand runs at once, and the host's memory and threads their sum.
 */
export function limitConcurrency<A extends unknown[], R>(limit: number, fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (...args) => {
    // A finished call hands its place to the first waiting one, so `active` never exceeds `limit`.
    if (active < limit) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await fn(...args);
    } finally {
      const next = waiting.shift();
      if (next !== undefined) next();
      else active--;
    }
  };
}
