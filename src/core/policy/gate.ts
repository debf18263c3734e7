/**
 * The PolicyGate built-in skills ask before every file, network, process and environment
 * operation (src/core/run/builtin.ts). It answers from the grant (requested ∩ policy) and
 * records every question, so the audit record can say which capabilities were used and which
 * operation was refused. A skill must use `resolved` from an allowed decision, never its input.
 */
import type { Code } from '../diagnostics.js';
import type { PolicyDecision, PolicyGate } from '../run/builtin.js';
import { ipFamily, isSpecialAddress } from './address.js';
import { lookupCommand } from './exec.js';
import { globMatch } from './glob.js';
import type { GrantedPermissions } from './grant.js';
import { pathForm, resolveReal, within } from './paths.js';
import { covers } from './scopes.js';
import { urlForm } from './url.js';

export type GateScope = 'fs.read' | 'fs.write' | 'net.http' | 'exec' | 'env';

/** One question the gate answered. Values are not kept: they may come from the skill's input. */
export interface GateUse {
  readonly scope: GateScope;
  readonly allowed: boolean;
  /** The grant entry that allowed it (`fs.read:/work/project`). */
  readonly covered_by?: string;
  readonly code?: Code;
  readonly reason?: string;
}

export interface RecordingGate extends PolicyGate {
  /** Every decision so far, in order. */
  readonly uses: readonly GateUse[];
  /**
   * Records a refusal a skill made itself, beyond the gate's questions (a patch path outside its
   * base, a connection to a non-public address), so the audit record names it like the gate's own.
   */
  recordRefusal(scope: GateScope, code: Code, reason: string): void;
}

/** Resolves a host name to its addresses (injectable for tests; default: the system resolver). */
export type HostLookup = (host: string) => Promise<readonly string[]>;

export interface GateOptions {
  readonly cwd: string;
  /** The PATH commands are looked up on (the run's, after scrubbing). */
  readonly pathEnv: string;
  readonly lookupHost?: HostLookup;
  /**
   * Real paths no skill may write, whatever the grant: the host policy, the lock file, the audit
   * log. A skill granted the whole project must not be able to grant itself more next time.
   */
  readonly protectedPaths?: readonly string[];
}

// node:dns is loaded on the first name lookup, not when skillctl starts.
const systemLookup: HostLookup = async (host) => {
  const { lookup } = await import('node:dns/promises');
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
};

const CONTROL = /[\u0000-\u001f\u007f]/;

export function createPolicyGate(granted: GrantedPermissions, opts: GateOptions): RecordingGate {
  const uses: GateUse[] = [];
  const lookupHost = opts.lookupHost ?? systemLookup;

  const allow = (scope: GateScope, coveredBy: string, resolved: string, address?: string): PolicyDecision => {
    uses.push({ scope, allowed: true, covered_by: `${scope}:${coveredBy}` });
    return address !== undefined ? { allowed: true, resolved, address } : { allowed: true, resolved };
  };
  const deny = (scope: GateScope, code: Code, reason: string): PolicyDecision => {
    uses.push({ scope, allowed: false, code, reason });
    return { allowed: false, code, reason, scope };
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
    if (scope === 'fs.write' && (opts.protectedPaths ?? []).some((p) => within(real, p))) {
      return deny(scope, 'POLICY_PATH_DENIED', 'fs.write: the path is protected (host policy, lock file or audit log)');
    }
    const roots = scope === 'fs.read' ? granted.fsRead : granted.fsWrite;
    const root = roots.find((r) => within(real, r));
    if (root === undefined) {
      const how = real !== form.absolute ? ' once symlinks are resolved' : '';
      return deny(scope, 'POLICY_PATH_DENIED', `${scope}: the path lies outside the granted ${scope} paths${how}`);
    }
    return allow(scope, root, real);
  }

  async function checkUrl(raw: string): Promise<PolicyDecision> {
    const form = urlForm(raw);
    if (!form.ok) return deny('net.http', 'POLICY_URL_INVALID', `net.http: ${form.reason}`);
    const grant = granted.netHttp.find((g) => covers(g.value, form.value));
    if (grant === undefined) return deny('net.http', 'POLICY_URL_DENIED', 'net.http: the URL is not covered by the granted prefixes');
    const host = form.url.hostname.replace(/^\[|\]$/g, '');
    if (ipFamily(host) !== 0) {
      // An IP literal reaches a special-purpose address only when the policy names that literal.
      if (isSpecialAddress(host) && grant.value.host.replace(/^\[|\]$/g, '') !== host) {
        return deny('net.http', 'POLICY_ADDRESS_PRIVATE', 'net.http: the address is not public and not granted by literal');
      }
      return allow('net.http', grant.raw, form.url.href, host);
    }
    let addresses: readonly string[];
    try {
      addresses = await lookupHost(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) return deny('net.http', 'POLICY_HOST_UNRESOLVED', 'net.http: the host name does not resolve');
    // Every answer must be public: a resolver can rotate answers between check and connect.
    if (addresses.some(isSpecialAddress)) {
      return deny('net.http', 'POLICY_ADDRESS_PRIVATE', 'net.http: the host name resolves to a non-public address');
    }
    return allow('net.http', grant.raw, form.url.href, addresses[0]);
  }

  async function checkExec(argv: readonly string[]): Promise<PolicyDecision> {
    if (!Array.isArray(argv) || argv.length === 0 || argv.some((a) => typeof a !== 'string')) {
      return deny('exec', 'POLICY_EXEC_DENIED', 'exec: argv must be a non-empty list of strings');
    }
    const [command, ...args] = argv as [string, ...string[]];
    if (CONTROL.test(command)) return deny('exec', 'POLICY_EXEC_DENIED', 'exec: the command contains a control character');
    const found = await lookupCommand(command, opts.pathEnv);
    if (!found.ok) return deny('exec', 'POLICY_EXEC_DENIED', `exec: the command ${found.reason}`);
    const grant = granted.exec.find((g) => g.path === found.path);
    if (grant === undefined) return deny('exec', 'POLICY_EXEC_DENIED', "exec: the command is not on the granted allowlist (the commands the skill's manifest requests that the host policy also allows)");
    for (const [i, arg] of args.entries()) {
      const n = i + 1;
      if (arg.includes('\u0000')) return deny('exec', 'POLICY_EXEC_ARGUMENT_DENIED', `exec: argument ${n} contains NUL`);
      if ((grant.deny_args ?? []).some((p) => globMatch(p, arg))) {
        return deny('exec', 'POLICY_EXEC_ARGUMENT_DENIED', `exec: argument ${n} matches a deny_args pattern`);
      }
      if (grant.args !== undefined && !grant.args.some((p) => globMatch(p, arg))) {
        return deny('exec', 'POLICY_EXEC_ARGUMENT_DENIED', `exec: argument ${n} matches none of the allowed argument patterns`);
      }
    }
    return allow('exec', grant.path, found.path);
  }

  return {
    uses,
    recordRefusal(scope, code, reason) {
      uses.push({ scope, allowed: false, code, reason });
    },
    checkRead: (path) => checkPath('fs.read', path),
    checkWrite: (path) => checkPath('fs.write', path),
    checkUrl,
    checkExec,
    checkEnv(name: string): PolicyDecision {
      if (typeof name === 'string' && granted.env.includes(name)) return allow('env', name, name);
      return deny('env', 'POLICY_ENV_DENIED', 'env: the variable is not granted');
    },
  };
}
