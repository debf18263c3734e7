import { SkillctlError } from '../errors.js';
import { abortError } from '../net/index.js';

/**
 * The overall deadline of a command's registry exchange (`--timeout`), and how a request answers
 * to it beside its caller's own signal. A request's idle timer (60 s without progress) never
 * fires for a registry that sends a byte every 59 s: only a bound on the whole exchange stops
 * one, and with it every request still in flight.
 */

/**
 * One deadline for every request of a command, across its registries. Its clock starts with the
 * first request that asks for it, so what a command does before it talks to a registry (push
 * packing and hashing a folder) is not counted, and a pull answered from the cache starts none.
 */
export class Deadline {
  /** The bound, named in the message a request past it fails with. */
  readonly seconds: number;
  private started: AbortSignal | undefined;

  constructor(seconds: number) {
    this.seconds = seconds;
  }

  /**
   * Aborted once `seconds` have passed since it was first asked for. Its timer never keeps the
   * process alive (AbortSignal.timeout's is unreferenced): a command that is done exits.
   */
  signal(): AbortSignal {
    this.started ??= AbortSignal.timeout(Math.ceil(this.seconds * 1000));
    return this.started;
  }

  /** What a request to `registry` for `what` fails with once the deadline passed. */
  passed(registry: string, what: string): SkillctlError {
    return new SkillctlError('OCI_UNREACHABLE', `${registry}: ${what}: not finished within the ${this.seconds} s timeout`, {
      hint: 'the registry or the link is slow: pass a longer --timeout, or none to wait as long as data keeps coming',
    });
  }
}

/** A reason for a request to stop: a signal, and the error its abort is reported as. */
export interface Stop {
  readonly signal: AbortSignal;
  readonly reason: () => Error;
}

/**
 * One signal that is aborted as soon as one of `stops` is, with that stop's reason. `release`
 * unhooks it from them all once the request is over: a deadline outlives every request of a
 * command and would otherwise keep a listener (and the request's objects) for each.
 */
export function linkedSignal(stops: readonly Stop[]): { readonly signal: AbortSignal; release(): void } {
  const ctl = new AbortController();
  const unhooks: (() => void)[] = [];
  for (const stop of stops) {
    const fire = (): void => ctl.abort(stop.reason());
    if (stop.signal.aborted) {
      fire();
      break;
    }
    stop.signal.addEventListener('abort', fire, { once: true });
    unhooks.push(() => stop.signal.removeEventListener('abort', fire));
  }
  return {
    signal: ctl.signal,
    release: () => {
      for (const unhook of unhooks.splice(0)) unhook();
    },
  };
}

/**
 * Waits `ms` before a retry; an abort of `signal` ends the wait at once with its reason (a
 * Retry-After of 10 s would otherwise hold a request given up for that long), the timer cleared.
 */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal === undefined) return void setTimeout(resolve, ms);
    if (signal.aborted) return reject(reasonOf(signal));
    const stop = (): void => {
      clearTimeout(timer);
      reject(reasonOf(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal.addEventListener('abort', stop, { once: true });
  });
}

/** What a request given up by `signal` rejects with: its reason, when that is an error. */
export function reasonOf(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : abortError('cancelled');
}
