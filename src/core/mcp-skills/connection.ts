/**
 * A connection to an MCP server that serves skills, through the official SDK's client and
 * transports (stdio: a program started without a shell; Streamable HTTP: a URL). The SDK frames
 * JSON-RPC; every result is returned as `unknown` for answers.ts to check, because the server is
 * untrusted. Three bounds keep a hostile server from holding the host: a time limit on every
 * request, the largest message the transport buffers, and the SDK's own process shutdown; a
 * caller with a bound on its whole run (verify-pins --timeout) adds a deadline over them all. A
 * server named by untrusted input (a lock's origin) is reached only at public addresses, each
 * connection checked as it is made (`publicOnly`, ./public-fetch.ts).
 */
import { StringDecoder } from 'node:string_decoder';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { diag, type Code, type Diagnostic } from '../diagnostics.js';
import type { NotPublicError } from '../policy/public-host.js';
import { boundedFetch } from './bounded-fetch.js';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** Where the server is: a program and its arguments, or a Streamable HTTP endpoint. */
export type ServerAddress = { readonly command: readonly string[] } | { readonly url: string };

/** How a server is named in findings and in the lock: the argv joined, or the URL. */
export function serverLabel(server: ServerAddress): string {
  return 'url' in server ? server.url : server.command.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

export interface ConnectOptions {
  /** Working directory of a stdio server. */
  readonly cwd: string;
  /** Milliseconds each request (initialize included) may take. */
  readonly timeoutMs: number;
  /** The largest message taken from the server, in bytes. */
  readonly maxMessageBytes: number;
  /**
   * Bounds the whole session (start, initialize, every request) beside `timeoutMs`: a server
   * that answers each request in 29 s passes every per-request limit and can still hold a run
   * for as long as it has requests to answer.
   */
  readonly deadline?: SessionDeadline;
  /**
   * What a stdio server writes to its stderr, as text (UTF-8 decoded across pieces); default:
   * read and dropped. It is the server's text: a caller that shows it on a terminal makes its
   * control characters visible first (core/visible.ts), as for a skill's stderr.
   */
  readonly onStderr?: (text: string) => void;
  /**
   * The bearer token of a Streamable HTTP server (ignored for stdio), sent as `Authorization:
   * Bearer` on every request of the session to the URL's origin, and to no other. It is kept out of
   * `ServerAddress`, which labels findings and is recorded in the origin records and the lock.
   */
  readonly bearerToken?: string;
  /**
   * Connect to a Streamable HTTP server only at public addresses (default false; ignored for
   * stdio): every connection of the session, a redirect's within the origin included, is refused
   * (PIN_ORIGIN_PRIVATE, nothing sent) when the host is, or its name then resolves to, a loopback,
   * private, link-local or other special address. For a server named by untrusted input.
   */
  readonly publicOnly?: boolean;
}

/**
 * A bound on a caller's whole run, shared by its sessions (and its registry exchanges: the OCI
 * `Deadline` is one): the seconds it allows, and a signal aborted once they have passed.
 */
export interface SessionDeadline {
  readonly seconds: number;
  signal(): AbortSignal;
}

/** Why the server cannot be used: a finding that stops the pull. */
export class ServerFailure extends Error {
  /** `rpcCode`: the JSON-RPC error code the server answered with, if it did. */
  constructor(
    readonly diagnostic: Diagnostic,
    readonly rpcCode?: number,
  ) {
    super(diagnostic.message);
    this.name = 'ServerFailure';
  }
}

const fail = (code: Code, message: string, hint?: string): ServerFailure => new ServerFailure(diag(code, message, hint === undefined ? {} : { hint }));

/** What a session given up at its deadline fails with, worded as an OCI exchange past its deadline is. */
function deadlinePassed(label: string, method: string, deadline: SessionDeadline): ServerFailure {
  return fail('MCP_PULL_SERVER_TIMEOUT', `${label}: ${method}: not finished within the ${deadline.seconds} s timeout`, 'the server or the link is slow: pass a longer --timeout');
}

export interface SkillServer {
  /** The server declared `directoryRead: true` for the extension. */
  readonly directoryRead: boolean;
  /** Sends one request; throws `ServerFailure` when there is no usable answer. */
  request(method: string, params: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

/** A JSON-RPC error as the SDK raises it. */
function rpcCode(err: unknown): number | undefined {
  const c = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof c === 'number' ? c : undefined;
}

/**
 * `diagnostics` with `token` taken out of their text. Findings quote the server's words (an
 * error's message, a value it answered with), and a server may echo the Authorization header it
 * was sent: the token would then reach a terminal, a CI log or a --json document.
 */
export function withoutToken(diagnostics: readonly Diagnostic[], token: string | undefined): Diagnostic[] {
  if (token === undefined) return [...diagnostics];
  const clean = (text: string): string => text.split(token).join('<token>');
  return diagnostics.map((d) => {
    const out: { -readonly [K in keyof Diagnostic]: Diagnostic[K] } = { ...d, message: clean(d.message) };
    if (d.hint !== undefined) out.hint = clean(d.hint);
    if (d.file !== undefined) out.file = clean(d.file);
    if (d.pointer !== undefined) out.pointer = clean(d.pointer);
    return out;
  });
}

const NOT_PUBLIC_HINT =
  "a name whose address turns private after it was checked is DNS rebinding; a server on your own network or machine is contacted only with --private-origins, for a lock you reviewed";

/** The refusal of a connection by the public-only lookup (ENOTPUBLIC), as the fetch threw it or as its cause. */
function notPublic(err: unknown): NotPublicError | undefined {
  for (let e = err, depth = 0; typeof e === 'object' && e !== null && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === 'ENOTPUBLIC') return e as NotPublicError;
  }
  return undefined;
}

function killNow(pid: number | null): void {
  if (pid === null) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // It has ended on its own meanwhile.
  }
}

/** Starts or reaches the server, initializes, and checks that it declares the Skills extension. */
export async function connectSkillServer(server: ServerAddress, opts: ConnectOptions): Promise<SkillServer> {
  const label = serverLabel(server);
  const deadline = opts.deadline;
  // The SDK adds an abort listener to the signal of each request and never removes it: on the
  // deadline's own signal, shared by every session of a run, they would pile up (and Node warns
  // past ten). A signal of this session's own, that follows it, is dropped with the session.
  const signal = deadline !== undefined ? AbortSignal.any([deadline.signal()]) : undefined;
  // A deadline that passed before this session's turn: no program is started only to be stopped.
  if (deadline !== undefined && signal?.aborted === true) throw deadlinePassed(label, 'initialize', deadline);
  // Every request is given up when the deadline passes; its rejection then closes the client,
  // which ends the program (stdin closed, then SIGTERM, then SIGKILL: the SDK's shutdown).
  const timing = { timeout: opts.timeoutMs, ...(signal !== undefined ? { signal } : {}) };
  const [{ Client: ClientClass }, sdkTypes] = await Promise.all([import('@modelcontextprotocol/sdk/client/index.js'), import('@modelcontextprotocol/sdk/types.js')]);
  let tooLarge = false;
  let transport: Transport;
  // The stdio program's pid while it runs (null for Streamable HTTP, or once it has ended).
  let pidOf = (): number | null => null;
  // How a Streamable HTTP server says "not without a token" (its status as the error's code).
  let httpError: typeof StreamableHTTPError | undefined;
  if ('url' in server) {
    const sdkHttp = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    httpError = sdkHttp.StreamableHTTPError;
    const url = new URL(server.url);
    const auth = opts.bearerToken !== undefined ? { origin: url.origin, token: opts.bearerToken } : undefined;
    const base = opts.publicOnly === true ? (await import('./public-fetch.js')).nodeFetch({ publicOnly: true }) : fetch;
    // Said rather than left to the SDK's default: a redirect to another origin would reach a host
    // nobody named (and, under publicOnly, one the lock's check never saw). It is refused.
    transport = new sdkHttp.StreamableHTTPClientTransport(url, { fetch: boundedFetch(base, opts.maxMessageBytes, () => (tooLarge = true), auth), redirectPolicy: 'same-origin' });
  } else {
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const { withLinearReads } = await import('./line-buffer.js');
    const [command, ...args] = server.command as [string, ...string[]];
    // The environment is the SDK's default (HOME, LOGNAME, PATH, SHELL, TERM, USER): no secret of
    // skillctl's own environment reaches a program that is only asked for files.
    // Piped, never inherited: the program's stderr would reach the user's terminal unfiltered. It
    // is always read, so a server that writes much never blocks on a full pipe.
    // Its messages read in linear time (line-buffer.ts says why).
    const stdio = withLinearReads(new StdioClientTransport({ command, args, cwd: opts.cwd, stderr: 'pipe', maxBufferSize: opts.maxMessageBytes }), opts.maxMessageBytes);
    const decoder = new StringDecoder('utf8');
    stdio.stderr?.on('data', (piece: Buffer) => {
      const text = decoder.write(piece);
      if (text !== '') opts.onStderr?.(text);
    });
    // The SDK's shutdown gives a program 2 s after its stdin closes and 2 s more after SIGTERM: a
    // server that ignores both would outlive the caller's deadline by 4 s. Past the deadline there
    // is nothing left to wait for, so the program is killed at once. (The SDK drops the pid when
    // the program has closed, so a pid the system has since reused is never signalled.)
    signal?.addEventListener('abort', () => killNow(stdio.pid), { once: true });
    pidOf = () => stdio.pid;
    transport = stdio;
  }
  const client: Client = new ClientClass({ name: 'skillctl', version: '1' }, { capabilities: {} });
  client.onerror = (err) => {
    // The stdio transport's buffer refuses a message over the bound and drops the rest of it; the
    // stream is then out of step, so the connection is of no further use.
    if (/exceeded maximum size/.test(err.message)) tooLarge = true;
  };
  const translate = (err: unknown, method: string): ServerFailure => {
    if (err instanceof ServerFailure) return err;
    if (deadline !== undefined && signal?.aborted === true) return deadlinePassed(label, method, deadline);
    if (tooLarge) return fail('MCP_PULL_FILE_TOO_LARGE', `${label} sent a message of more than ${opts.maxMessageBytes} bytes (answering ${method})`);
    const refused = notPublic(err);
    if (refused !== undefined) {
      const where = refused.host === refused.address ? `${refused.address} is not a public address` : `${refused.host} resolved to ${refused.address} as the connection was made, not a public address`;
      return fail('PIN_ORIGIN_PRIVATE', `${label}: ${method} was not sent: ${where}`, NOT_PUBLIC_HINT);
    }
    // The body of the 401 is not quoted: it is the server's text, and may echo what was sent.
    if (httpError !== undefined && err instanceof httpError && err.code === 401) {
      return opts.bearerToken === undefined
        ? fail('MCP_PULL_SERVER_UNAUTHORIZED', `${label} answered ${method} with 401 Unauthorized: the server wants a bearer token`, "pass the server's token with --mcp-token-file")
        : fail('MCP_PULL_SERVER_UNAUTHORIZED', `${label} answered ${method} with 401 Unauthorized: it refused the bearer token sent`, "check that the --mcp-token-file holds this server's token");
    }
    const msg = err instanceof Error ? err.message : String(err);
    if (httpError !== undefined && err instanceof httpError && typeof err.code === 'number' && err.code >= 300 && err.code < 400) {
      return fail('MCP_PULL_SERVER_UNAVAILABLE', `${label} answered ${method} with HTTP ${err.code}, a redirect that is not followed: ${msg.slice(0, 200)}`, "only a redirect within the server's origin (scheme, host and port) is followed");
    }
    // Any other HTTP error status (the SDK puts it where a JSON-RPC code would go): the endpoint
    // cannot be used, as docs/codes.md says, not an MCP error the server answered.
    if (httpError !== undefined && err instanceof httpError && typeof err.code === 'number' && err.code >= 400 && err.code < 600) {
      return fail('MCP_PULL_SERVER_UNAVAILABLE', `${label} answered ${method} with HTTP ${err.code}: ${msg.slice(0, 200)}`);
    }
    const code = rpcCode(err);
    if (code === sdkTypes.ErrorCode.RequestTimeout) {
      return fail('MCP_PULL_SERVER_TIMEOUT', `${label} did not answer ${method} within ${opts.timeoutMs / 1000} s`, 'a larger --timeout gives a slow server more time');
    }
    if (code === sdkTypes.ErrorCode.ConnectionClosed || code === undefined) return fail('MCP_PULL_SERVER_UNAVAILABLE', `${label}: ${method}: ${msg}`);
    return new ServerFailure(diag('MCP_PULL_SERVER_ERROR', `${label} answered ${method} with error ${code}: ${msg.slice(0, 500)}`), code);
  };
  // The whole handshake, not only the initialize request, is under the time limit (and the
  // deadline): the SDK sends `notifications/initialized` with no limit at all, and a Streamable
  // HTTP server that never answers its POST held the pull for the HTTP stack's 300 s. A server
  // that has not finished the handshake in time is given up at once, a stdio program killed
  // rather than given the SDK's 4 s of shutdown grace, which one ignoring its stdin and SIGTERM
  // spent in full (mcp-pull-handshake-stall.test.ts).
  const stalled = new AbortController();
  const timer = setTimeout(() => stalled.abort(), opts.timeoutMs);
  const onDeadline = (): void => stalled.abort();
  signal?.addEventListener('abort', onDeadline, { once: true });
  try {
    const handshake = client.connect(transport, timing);
    const given = new Promise<never>((_, reject) => stalled.signal.addEventListener('abort', () => reject(new Error('handshake stalled')), { once: true }));
    handshake.catch(() => undefined);
    given.catch(() => undefined);
    await Promise.race([handshake, given]);
  } catch (err) {
    // The SDK's own limit on the initialize request may come first: as late, and as dead.
    if (stalled.signal.aborted || rpcCode(err) === sdkTypes.ErrorCode.RequestTimeout) killNow(pidOf());
    await client.close().catch(() => undefined);
    if (stalled.signal.aborted && signal?.aborted !== true) {
      throw fail('MCP_PULL_SERVER_TIMEOUT', `${label} did not finish the handshake (initialize) within ${opts.timeoutMs / 1000} s`, 'a larger --timeout gives a slow server more time');
    }
    throw translate(err, 'initialize');
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onDeadline);
  }
  const caps = client.getServerCapabilities();
  const ext: unknown = caps?.extensions?.[SKILLS_EXTENSION];
  if (caps?.resources === undefined || typeof ext !== 'object' || ext === null) {
    await client.close().catch(() => undefined);
    throw fail('MCP_PULL_NOT_SUPPORTED', `${label} does not declare the ${SKILLS_EXTENSION} extension with the resources capability`);
  }
  const anything = sdkTypes.ResultSchema;
  return {
    directoryRead: (ext as { directoryRead?: unknown }).directoryRead === true,
    async request(method, params) {
      // A message over the bound has already closed the stream: fail at once rather than wait.
      if (tooLarge) throw translate(undefined, method);
      try {
        return await client.request({ method, params }, anything, timing);
      } catch (err) {
        if (tooLarge) await client.close().catch(() => undefined);
        throw translate(err, method);
      }
    },
    close: () => client.close(),
  };
}
