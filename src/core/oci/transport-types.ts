/**
 * What a Transport (./transport.ts) is built with and what it is asked and answers: the shapes
 * its callers share, apart from how it keeps them.
 */
import type { CredentialStore } from './credentials.js';
import type { Deadline } from './deadline.js';
import type { HttpResponse } from '../net/index.js';

export interface TransportOptions {
  /** Allow plain HTTP to a host that is not loopback (default false). */
  readonly plainHttp?: boolean;
  readonly credentials: CredentialStore;
  /** Retries after a 429 or 5xx (default 3). */
  readonly retries?: number;
  /** First backoff delay, doubled each retry (default 250 ms). */
  readonly backoffMs?: number;
  /** A request with no progress for this long is aborted (default 60 s). */
  readonly idleMs?: number;
  /**
   * Bounds the whole exchange (default none: a large layer over a slow link is never cut). Once
   * it passes, every request in flight or asked for fails with OCI_UNREACHABLE naming it.
   */
  readonly deadline?: Deadline;
  /**
   * Connect only to public addresses, redirect targets and token realms included (default false):
   * for a registry named by untrusted input, such as a lock's origin (../net/http-exchange.ts says how).
   */
  readonly publicOnly?: boolean;
}

export interface RequestInit {
  readonly headers?: Record<string, string>;
  /** A body that can be sent again (a retry or an auth round repeats it, re-opening a stream). */
  readonly body?: RequestBody;
  /** Statuses the caller handles itself (404 on a HEAD, say); others above 299 throw. */
  readonly accept?: readonly number[];
  /** Names the object in messages ("manifest repo:tag", "blob sha256:…"). */
  readonly what: string;
  /** Gives the request up (its exchange is aborted, the rejection is the signal's reason). */
  readonly signal?: AbortSignal;
  /**
   * Tidies up after a failure (cancels an upload session): not under the deadline, which may be
   * the failure, but under CLEANUP_MS of its own.
   */
  readonly cleanup?: boolean;
}

/**
 * A body streamed from a source that can be opened again (a file): sent as it is read, never
 * held whole, with its length announced. A retry or an auth round opens it anew. A piece may be
 * reused by the source once the next is asked for: each is handed to the socket before that.
 */
export interface StreamedBody {
  readonly length: number;
  open(): AsyncIterable<Uint8Array>;
}

export type RequestBody = Uint8Array | StreamedBody;

/** A response and the timer that aborts it when its body stalls: call `touch` per chunk, `done` at the end. */
export interface Reply {
  readonly response: HttpResponse;
  readonly url: string;
  touch(): void;
  done(): void;
}
