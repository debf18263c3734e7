/**
 * The checker of `skillctl mcp --skills` (core/agent-skills/served-check.ts): a worker thread
 * that makes two in three skills' per-file checks at each listing while the server's thread
 * walks the directories and checks the rest. Started with the catalogue, so it has loaded by
 * the first listing; it never keeps the process alive, and if it fails, every check is made on
 * the server's thread again.
 */
import type { Worker } from 'node:worker_threads';
import { packIdentities, type FileIdentity, type IdentityChecker } from '../core/agent-skills/index.js';
import { startWorker } from '../entry/workers.js';
import type { CheckReply, CheckRequest } from './served-check-worker.js';

/** Of every `SHARE_OF` sets, all but one go to the thread: this one also walks the directories. */
const SHARE_OF = 3;

/**
 * Milliseconds a listing waits for the thread's answer, counted from when it starts waiting
 * (after walking the directories and making its own share of the checks, however long those
 * took). The thread's share takes a few milliseconds; a thread that has not answered by then is
 * stuck or starved, and is given up for good (every check is then made on the server's thread,
 * as without it): a listing never hangs on it.
 */
export const ANSWER_WITHIN_MS = 500;

class ThreadChecker implements IdentityChecker {
  readonly #worker: Worker;
  #dead = false;
  #added = 0;
  #nextId = 1;
  #add: CheckRequest['add'][number][] = [];
  #remove: number[] = [];
  #checks = 0;
  readonly #waiting = new Map<number, (ids: ReadonlySet<number>) => void>();

  constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (m: CheckReply) => {
      const done = this.#waiting.get(m.check);
      this.#waiting.delete(m.check);
      done?.(new Set(m.unchanged));
    });
    worker.on('error', () => this.#fail());
    worker.on('exit', () => this.#fail());
    // After the listeners: the thread never keeps the process alive (and close() stops it).
    worker.unref();
  }

  close(): void {
    this.#fail();
    void this.#worker.terminate();
  }

  #fail(): void {
    this.#dead = true;
    for (const done of this.#waiting.values()) done(new Set());
    this.#waiting.clear();
  }

  add(paths: readonly string[], identities: readonly FileIdentity[]): number | undefined {
    if (this.#dead || this.#added++ % SHARE_OF === 0) return undefined;
    const id = this.#nextId++;
    this.#add.push({ id, paths, identities: packIdentities(identities) });
    return id;
  }

  remove(id: number): void {
    this.#remove.push(id);
  }

  #send(check?: number): void {
    const m: CheckRequest = { add: this.#add, remove: this.#remove, ...(check !== undefined ? { check } : {}) };
    this.#add = [];
    this.#remove = [];
    this.#worker.postMessage(m);
  }

  flush(): void {
    if (!this.#dead && (this.#add.length > 0 || this.#remove.length > 0)) this.#send();
  }

  check(): () => Promise<ReadonlySet<number>> {
    if (this.#dead) return () => Promise.resolve(new Set());
    const n = ++this.#checks;
    let timer: NodeJS.Timeout | undefined;
    const answer = new Promise<ReadonlySet<number>>((resolve) => {
      this.#waiting.set(n, (ids) => {
        clearTimeout(timer);
        resolve(ids);
      });
    });
    this.#send(n);
    return () => {
      // Timed from here, not from the request: the server's thread did its own work between
      // them, during which the answer may have arrived and waits behind it in the queue. Not
      // unref'd: a listing waiting for its answer keeps the process alive (the thread does not).
      if (this.#waiting.has(n) && timer === undefined) {
        timer = setTimeout(() => {
          this.#fail();
          void this.#worker.terminate();
        }, ANSWER_WITHIN_MS);
      }
      return answer;
    };
  }
}

/** The checker of a thread running served-check-worker.ts's `checkWorkerMain`. */
export function checkerOn(worker: Worker): IdentityChecker {
  return new ThreadChecker(worker);
}

/** The checker, or undefined where no worker thread can start (the library run from source). */
export function startIdentityChecker(): IdentityChecker | undefined {
  const worker = startWorker({ chunk: 'served-check-worker', entry: 'checkWorkerMain' });
  return worker === undefined ? undefined : checkerOn(worker);
}
