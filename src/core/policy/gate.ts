/**
 * The PolicyGate built-in skills ask before every file, network, process and environment
 * operation. It answers from the grant (requested ∩ policy) and records every question, so the
 * audit record can say which capabilities were used and which operation was refused. A skill
 * must use `resolved` from an allowed decision, never its input; file contents are reached only
 * through the checked file layer (checked-fs.ts), which verifies what it opened.
 */
import type { Code } from '../diagnostics.js';
import { lookupCommand } from '../fs/find-command.js';
import { ipFamily, isSpecialAddress } from './address.js';
import { argumentDenied, globMatch } from './glob.js';
import type { GrantedPermissions, NetGrant } from './grant.js';
import { kernelDirReason, pathForm, resolveReal, within } from './paths.js';
import { protectedReason, secretReason, type WriteUse } from './protected.js';
import { hostAddressCheck, systemLookup, type HostLookup } from './public-host.js';
import { covers } from './scopes.js';
import { urlForm, type UrlForm } from './url.js';

/** The host policy's answer for one operation. `resolved` is what the skill must then use. */
export type PolicyDecision =
  | {
      readonly allowed: true;
      readonly resolved: string;
      /**
       * checkUrl only: the IP address the host checked. Connect to it (keeping the URL's host name
       * for the Host header and TLS) so that a second DNS answer cannot lead somewhere else.
       */
      readonly address?: string;
    }
  | PolicyDenial;

export interface PolicyDenial {
  readonly allowed: false;
  readonly code: Code;
  readonly reason: string;
  /**
   * The permission scope the refused operation needed. The gate always says; a skill that refuses
   * an operation itself (beyond the gate's checks) must say, so the audit record can name the
   * refusal like the gate's own.
   */
  readonly scope?: GateScope;
  /** The reason the audit record keeps, when `reason` names a value the skill chose (a path of its input). */
  readonly recorded?: string;
}

/** Host-policy checks available to a built-in skill. Each use is recorded for the audit trail. */
export interface PolicyGate {
  /** May the skill read this path? Relative paths resolve against the run's cwd; symlinks are resolved. */
  checkRead(path: string): Promise<PolicyDecision>;
  /** May the skill create, modify or delete this path? */
  checkWrite(path: string): Promise<PolicyDecision>;
  /** May the skill fetch this URL (and, for redirects, each hop)? Includes the address checks. */
  checkUrl(url: string): Promise<PolicyDecision>;
  /** May the skill run this argv (argv[0] a name or absolute path)? `resolved` is the executable. */
  checkExec(argv: readonly string[], opts?: ExecCheckOptions): Promise<PolicyDecision>;
  /** May the skill see this environment variable? */
  checkEnv(name: string): PolicyDecision;
}

export type GateScope = 'fs.read' | 'fs.write' | 'net.http' | 'exec' | 'env';

export interface ExecCheckOptions {
  /**
   * What the skill does instead when the program is refused (search.ripgrep: `the built-in
   * search`). A refusal is then recorded as a fallback, not a denial: the skill needs nothing
   * the policy withheld, so the run stays allowed, and the record says what it did without.
   */
  readonly fallback?: string;
}

/** One question the gate answered. Values are not kept: they may come from the skill's input. */
export interface GateUse {
  readonly scope: GateScope;
  readonly allowed: boolean;
  /** The grant entry that allowed it (`fs.read:/work/project`). */
  readonly covered_by?: string;
  readonly code?: Code;
  readonly reason?: string;
  /** On a refusal the skill did without: what it did instead (ExecCheckOptions.fallback). */
  readonly fallback?: string;
}

export interface RecordingGate extends PolicyGate {
  /**
   * May the skill's process open a tunnel (HTTP CONNECT, through the egress proxy) to `host:port`? Allowed
   * when a granted prefix names that host and port, whatever its path (a tunnel's path cannot be
   * seen); the same address checks as checkUrl, and `address` is where to connect. `resolved`
   * is `https://host:port` when an https prefix allowed it, else `http://host:port`.
   */
  checkTunnel(authority: string): Promise<PolicyDecision>;
  /** Every decision so far, in order. */
  readonly uses: readonly GateUse[];
  /**
   * Records a refusal a skill made itself, beyond the gate's questions (a patch path outside its
   * base, a connection to a non-public address), so the audit record names it like the gate's own.
   */
  recordRefusal(scope: GateScope, code: Code, reason: string): void;
  /**
   * The decision about a real path the checked file layer opened (no symlink left to resolve),
   * recorded like every other question. `use` says what an fs.write does with it (protected.ts:
   * `write` by default; `move` to rename or remove it; `enter` to write inside a directory).
   */
  decidePath(scope: 'fs.read' | 'fs.write', real: string, throughLinks?: boolean, use?: WriteUse): PolicyDecision;
}

export interface GateOptions {
  readonly cwd: string;
  /** The PATH commands are looked up on (the run's, after scrubbing). */
  readonly pathEnv: string;
  /**
   * Real paths of the policy's fs.write (all of it, not only this grant): a command whose real
   * path lies inside one is refused (POLICY_EXEC_WRITABLE), since a skill may have rewritten it.
   * Default: none.
   */
  readonly writable?: readonly string[];
  readonly lookupHost?: HostLookup;
  /**
   * Real paths no skill may write, whatever the grant: the host policy in force and its
   * directory, the lock file, the audit log (besides the names protected everywhere, protected.ts).
   */
  readonly protectedPaths?: readonly string[];
  /**
   * Real paths of files no skill may read, write or list, whatever the grant, besides SECRET_DIRS:
   * the secrets of the command that starts the runs (`mcp --http-token-file`). Default: none.
   */
  readonly secretPaths?: readonly string[];
  /** Told each question as it is answered (a worker thread forwards them to the run). */
  readonly onUse?: (use: GateUse) => void;
  /**
   * Keep (and tell) each distinct answer once: for a skill that goes on after a refusal and may
   * ask the same question any number of times (a WASI module). Default: every answer.
   */
  readonly distinct?: boolean;
}

const CONTROL = /[\u0000-\u001f\u007f]/;
/** `host:port` or `[v6]:port`, as a CONNECT request names its target. */
const TUNNEL = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})$/;

export function createPolicyGate(granted: GrantedPermissions, opts: GateOptions): RecordingGate {
  const uses: GateUse[] = [];
  const seen = new Set<string>();
  const lookupHost = opts.lookupHost ?? systemLookup;

  const record = (use: GateUse): void => {
    if (opts.distinct === true) {
      // Kept whole, 400,000 refused path_open calls of one WASI run held 0.8 GB of the host's
      // memory and wrote a 60 MB audit record; a few such runs put the log past what `audit verify` reads.
      const key = JSON.stringify([use.scope, use.allowed, use.covered_by, use.code, use.reason, use.fallback]);
      if (seen.has(key)) return;
      seen.add(key);
    }
    uses.push(use);
    opts.onUse?.(use);
  };
  const allow = (scope: GateScope, coveredBy: string, resolved: string, address?: string): PolicyDecision => {
    record({ scope, allowed: true, covered_by: `${scope}:${coveredBy}` });
    return address !== undefined ? { allowed: true, resolved, address } : { allowed: true, resolved };
  };
  /** `recorded`: the reason the audit record keeps, when `reason` names a value the skill chose. */
  const deny = (scope: GateScope, code: Code, reason: string, fallback?: string, recorded = reason): PolicyDecision => {
    record({ scope, allowed: false, code, reason: recorded, ...(fallback !== undefined ? { fallback } : {}) });
    return { allowed: false, code, reason, scope, ...(recorded !== reason ? { recorded } : {}) };
  };

  async function checkPath(scope: 'fs.read' | 'fs.write', path: string): Promise<PolicyDecision> {
    const form = pathForm(path, opts.cwd);
    if (!form.ok) return deny(scope, 'POLICY_PATH_INVALID', `${scope}: the path ${form.reason}`);
    let real: string;
    try {
      real = await resolveReal(form.absolute);
    } catch (err) {
      return deny(scope, 'POLICY_PATH_INVALID', `${scope}: the path cannot be resolved (${(err as { code?: string }).code ?? 'error'})`);
    }
    return decidePath(scope, real, real !== form.absolute);
  }

  /** The decision about a real (symlink-free) path; also what the checked file layer asks about what it opened. */
  function decidePath(scope: 'fs.read' | 'fs.write', real: string, throughLinks = false, use: WriteUse = 'write'): PolicyDecision {
    const secret = secretReason(real, opts.secretPaths);
    if (secret !== undefined) return deny(scope, 'POLICY_PATH_SECRET', `${scope}: ${secret}`);
    if (scope === 'fs.write') {
      const why = protectedReason(real, opts.protectedPaths ?? [], use);
      if (why !== undefined) return deny(scope, 'POLICY_PATH_PROTECTED', `fs.write: ${why}`);
    }
    const roots = scope === 'fs.read' ? granted.fsRead : granted.fsWrite;
    const root = roots.find((r) => within(real, r));
    if (root === undefined) {
      const how = throughLinks ? ' once symlinks are resolved' : '';
      return deny(scope, 'POLICY_PATH_DENIED', `${scope}: the path lies outside the granted ${scope} paths${how}`);
    }
    const kernel = kernelDirReason(real, root);
    if (kernel !== undefined) return deny(scope, 'POLICY_PATH_DENIED', `${scope}: ${kernel}`);
    return allow(scope, root, real);
  }

  /** The address checks for a URL the grant `grant` covers, then the decision (checkUrl, checkTunnel). */
  async function reach(grant: NetGrant, form: Extract<UrlForm, { ok: true }>, resolved: string): Promise<PolicyDecision> {
    const host = form.url.hostname.replace(/^\[|\]$/g, '');
    if (ipFamily(host) !== 0) {
      // An IP literal reaches a special-purpose address only when the policy names that literal.
      if (isSpecialAddress(host) && grant.value.host.replace(/^\[|\]$/g, '') !== host) {
        return deny('net.http', 'POLICY_ADDRESS_PRIVATE', 'net.http: the address is not public and not granted by literal');
      }
      return allow('net.http', grant.raw, resolved, host);
    }
    // A name any of whose answers is not public is refused (public-host.ts says why any).
    const checked = await hostAddressCheck(host, lookupHost);
    if (checked.kind === 'unresolved') return deny('net.http', 'POLICY_HOST_UNRESOLVED', 'net.http: the host name does not resolve');
    if (checked.kind === 'special') return deny('net.http', 'POLICY_ADDRESS_PRIVATE', 'net.http: the host name resolves to a non-public address');
    return allow('net.http', grant.raw, resolved, checked.address);
  }

  async function checkUrl(raw: string): Promise<PolicyDecision> {
    const form = urlForm(raw);
    if (!form.ok) return deny('net.http', 'POLICY_URL_INVALID', `net.http: ${form.reason}`);
    const grant = granted.netHttp.find((g) => covers(g.value, form.value));
    if (grant === undefined) return deny('net.http', 'POLICY_URL_DENIED', 'net.http: the URL is not covered by the granted prefixes');
    return reach(grant, form, form.url.href);
  }

  async function checkTunnel(authority: string): Promise<PolicyDecision> {
    const m = TUNNEL.exec(authority);
    if (m === null) return deny('net.http', 'POLICY_URL_INVALID', 'net.http: a tunnel names host:port');
    // Through a tunnel the path cannot be seen: a grant covers its host and port whatever its path.
    // An https grant first: `resolved` names the scheme, and only a plain-http tunnel can be read.
    const ordered = [...granted.netHttp].sort((a, b) => Number(a.value.protocol !== 'https:') - Number(b.value.protocol !== 'https:'));
    for (const grant of ordered) {
      const form = urlForm(`${grant.value.protocol}//${authority}${grant.value.path}`);
      if (form.ok && covers(grant.value, form.value)) return reach(grant, form, `${form.url.protocol}//${form.url.host}`);
    }
    // The host and port are the skill's: recorded, each distinct one would be a denial of its own,
    // and a skill that asks for 100,000 hosts would write them all to the audit log.
    return deny('net.http', 'POLICY_URL_DENIED', "net.http: no granted prefix names the tunnel's host and port");
  }

  async function checkExec(argv: readonly string[], eo: ExecCheckOptions = {}): Promise<PolicyDecision> {
    const refuse = (code: Code, reason: string, recorded = reason): PolicyDecision => deny('exec', code, reason, eo.fallback, recorded);
    if (!Array.isArray(argv) || argv.length === 0 || argv.some((a) => typeof a !== 'string')) {
      return refuse('POLICY_EXEC_DENIED', 'exec: argv must be a non-empty list of strings');
    }
    const [command, ...args] = argv as [string, ...string[]];
    if (CONTROL.test(command)) return refuse('POLICY_EXEC_DENIED', 'exec: the command contains a control character');
    const found = await lookupCommand(command, opts.pathEnv, { writable: opts.writable ?? [] });
    if (!found.ok) {
      if (found.writable === undefined) return refuse('POLICY_EXEC_DENIED', `exec: the command ${found.reason}`);
      // The path (the command, from the input) is the user's to see, not the record's: records name no value a skill was refused.
      return refuse('POLICY_EXEC_WRITABLE', `exec: the command ${found.reason}`, 'exec: the command resolves inside an fs.write path, where a skill may have rewritten it');
    }
    const grant = granted.exec.find((g) => g.path === found.path);
    if (grant === undefined) return refuse('POLICY_EXEC_DENIED', "exec: the command is not on the granted allowlist (the commands the skill's manifest requests that the host policy also allows)");
    for (const [i, arg] of args.entries()) {
      const n = i + 1;
      if (arg.includes('\u0000')) return refuse('POLICY_EXEC_ARGUMENT_DENIED', `exec: argument ${n} contains NUL`);
      if (argumentDenied(grant.deny_args ?? [], arg)) {
        return refuse('POLICY_EXEC_ARGUMENT_DENIED', `exec: argument ${n} reaches an option a deny_args pattern names`);
      }
      if (grant.args !== undefined && !grant.args.some((p) => globMatch(p, arg))) {
        return refuse('POLICY_EXEC_ARGUMENT_DENIED', `exec: argument ${n} matches none of the allowed argument patterns`);
      }
    }
    return allow('exec', grant.path, found.path);
  }

  return {
    uses,
    recordRefusal(scope, code, reason) {
      record({ scope, allowed: false, code, reason });
    },
    decidePath,
    checkRead: (path) => checkPath('fs.read', path),
    checkWrite: (path) => checkPath('fs.write', path),
    checkUrl,
    checkTunnel,
    checkExec,
    checkEnv(name: string): PolicyDecision {
      if (typeof name === 'string' && granted.env.includes(name)) return allow('env', name, name);
      return deny('env', 'POLICY_ENV_DENIED', 'env: the variable is not granted');
    },
  };
}
