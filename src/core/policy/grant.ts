/**
 * Granted = requested (manifest) ∩ host policy, per scope. Paths are compared by where they
 * really lead (symlinks resolved on both sides; the policy's own paths follow no link a skill
 * could have made, see grant-path.ts); commands by the executable they resolve to.
 * A required value that the grant does not cover is a denial: the run must not start.
 */
import type { Code } from '../diagnostics.js';
import { lookupCommand, type CommandLookup } from '../fs/find-command.js';
import { permissionValues, type PermissionScope, type Permissions } from '../manifest/model.js';
import type { HostPolicy } from './model.js';
import { resolveGrantPath, type GrantPath } from './grant-path.js';
import { pathForm, resolveReal, within } from './paths.js';
import { covers, parseScopeValue, type ScopeValue } from './scopes.js';
import { pushAll } from '../findings.js';

export interface ExecGrant {
  /** As the manifest requested it. */
  readonly name: string;
  /** The absolute executable it resolves to. */
  readonly path: string;
  readonly args?: readonly string[];
  readonly deny_args?: readonly string[];
}

export type NetGrant = { readonly raw: string; readonly value: ScopeValue & { scope: 'net.http' } };

export interface GrantedPermissions {
  /** Real (symlink-free) absolute path prefixes. */
  readonly fsRead: readonly string[];
  readonly fsWrite: readonly string[];
  readonly netHttp: readonly NetGrant[];
  readonly exec: readonly ExecGrant[];
  readonly env: readonly string[];
}

export interface PermissionDenial {
  readonly scope: PermissionScope;
  /** The required value, as the manifest wrote it. */
  readonly value: string;
  readonly code: Code;
  readonly reason: string;
}

export interface Grant {
  readonly granted: GrantedPermissions;
  /** `scope:value` strings, sorted: what the manifest asked for, needs, and what it got. */
  readonly requested: readonly string[];
  readonly required: readonly string[];
  readonly grantedList: readonly string[];
  /**
   * Required values the grant does not cover, and policy paths the skill asks for that lead
   * through a symlink a skill could have made; non-empty means the run is refused.
   */
  readonly denials: readonly PermissionDenial[];
}

export interface GrantOptions {
  /** The run's working directory: relative manifest paths resolve against it. */
  readonly cwd: string;
  /** The PATH commands are looked up on. */
  readonly pathEnv: string;
}

const SCOPES = ['fs.read', 'fs.write', 'net.http', 'exec', 'env'] as const satisfies readonly PermissionScope[];

function list(p: Permissions, scope: PermissionScope): string[] {
  return permissionValues(p[scope]);
}

async function real(path: string): Promise<string | undefined> {
  try {
    return await resolveReal(path);
  } catch {
    return undefined;
  }
}

async function realPaths(values: readonly string[], cwd: string): Promise<{ raw: string; absolute: string | undefined; real: string | undefined }[]> {
  return Promise.all(
    values.map(async (raw) => {
      const form = pathForm(raw, cwd);
      return form.ok ? { raw, absolute: form.absolute, real: await real(form.absolute) } : { raw, absolute: undefined, real: undefined };
    }),
  );
}

function overlaps(a: string, b: string): boolean {
  return within(a, b) || within(b, a);
}

/** Why a policy path that leads through a link is refused. */
function linkDenial(scope: 'fs.read' | 'fs.write', root: string, path: Extract<GrantPath, { kind: 'in-write-grant' | 'user-writable' }>): PermissionDenial {
  if (path.kind === 'in-write-grant') {
    return { scope, value: root, code: 'POLICY_PATH_CHANGED', reason: `the policy's ${scope} path ${root} now leads through the symlink ${path.link}, inside a writable directory` };
  }
  return {
    scope,
    value: root,
    code: 'POLICY_PATH_LINK',
    reason: `the policy's ${scope} path ${root} leads through the symlink ${path.link} (to ${path.leadsTo}), in a directory this user owns or can write, where a skill could have made it`,
  };
}

function narrower(a: string, b: string): string | undefined {
  if (within(a, b)) return a;
  if (within(b, a)) return b;
  return undefined;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

interface PathGrant {
  readonly granted: string[];
  readonly changed: PermissionDenial[];
}

async function grantPaths(scope: 'fs.read' | 'fs.write', requested: readonly string[], roots: readonly string[], writeGrants: readonly string[], cwd: string): Promise<PathGrant> {
  const req = await realPaths(requested, cwd);
  // Each policy path is resolved once, here, by the walk that judges its links: the rest of the run uses these real paths.
  const pol = await Promise.all(roots.map(async (root) => ({ root, path: await resolveGrantPath(root, { writeGrants }) })));
  const granted: string[] = [];
  const changed: PermissionDenial[] = [];
  for (const r of req) {
    if (r.real === undefined) continue;
    for (const { root, path } of pol) {
      if (!path.ok) {
        // A path that leads nowhere grants nothing; one through a link is refused where the skill
        // asks for what it names or leads to.
        if (path.kind === 'unresolvable') continue;
        const names = [root, ...(path.kind === 'user-writable' ? [path.leadsTo] : [])];
        if (names.some((n) => overlaps(r.real as string, n) || (r.absolute !== undefined && overlaps(r.absolute, n)))) changed.push(linkDenial(scope, root, path));
        continue;
      }
      const n = narrower(r.real, path.real);
      if (n !== undefined) granted.push(n);
    }
  }
  return { granted: unique(granted), changed: dedupe(changed) };
}

function dedupe(denials: readonly PermissionDenial[]): PermissionDenial[] {
  const seen = new Set<string>();
  return denials.filter((d) => {
    const key = `${d.scope}\u0000${d.value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function grantNet(requested: readonly string[], policy: HostPolicy): NetGrant[] {
  const out = new Map<string, NetGrant>();
  for (const raw of requested) {
    const r = parseScopeValue('net.http', raw);
    if (!r.ok) continue;
    const rv = r.value as NetGrant['value'];
    for (const p of policy.netHttp) {
      if (covers(p.value, rv)) out.set(raw, { raw, value: rv });
      else if (covers(rv, p.value)) out.set(p.raw, p);
    }
  }
  return [...out.values()].sort((a, b) => (a.raw < b.raw ? -1 : a.raw > b.raw ? 1 : 0));
}

/** The lexical path a lookup names, whether it was found or refused for lying in a write root. */
function namedPath(found: CommandLookup): string | undefined {
  return found.ok ? found.path : found.writable?.path;
}

interface ExecGrants {
  readonly granted: ExecGrant[];
  /** Requested commands a rule names whose program lies inside a write root: the run is refused. */
  readonly writable: PermissionDenial[];
}

async function grantExec(requested: readonly string[], policy: HostPolicy, pathEnv: string, writable: readonly string[]): Promise<ExecGrants> {
  const rules = await Promise.all(policy.exec.map(async (rule) => ({ rule, found: await lookupCommand(rule.command, pathEnv, { writable }) })));
  const out: ExecGrant[] = [];
  const refused: PermissionDenial[] = [];
  for (const name of requested) {
    const found = await lookupCommand(name, pathEnv, { writable });
    const path = namedPath(found);
    const match = path === undefined ? undefined : rules.find((r) => namedPath(r.found) === path);
    if (match === undefined) continue;
    // A rule grants a program that any skill under this policy may rewrite: the run that would start it is refused.
    if (!found.ok) refused.push({ scope: 'exec', value: match.rule.command, code: 'POLICY_EXEC_WRITABLE', reason: `the exec rule ${JSON.stringify(match.rule.command)}: the command ${found.reason}` });
    if (!found.ok || out.some((g) => g.path === found.path)) continue;
    out.push({
      name,
      path: found.path,
      ...(match.rule.args !== undefined ? { args: match.rule.args } : {}),
      ...(match.rule.deny_args !== undefined ? { deny_args: match.rule.deny_args } : {}),
    });
  }
  return { granted: out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), writable: dedupe(refused) };
}

/** The reason of a required value that the policy does not grant (and an entry would). */
export const NOT_GRANTED = 'not granted by the host policy';

async function checkRequired(scope: PermissionScope, values: readonly string[], granted: GrantedPermissions, opts: GrantOptions, writable: readonly string[]): Promise<PermissionDenial[]> {
  const denials: PermissionDenial[] = [];
  for (const value of values) {
    let ok = false;
    let reason = NOT_GRANTED;
    let code: Code = 'POLICY_PERMISSION_DENIED';
    switch (scope) {
      case 'fs.read':
      case 'fs.write': {
        const [r] = await realPaths([value], opts.cwd);
        const roots = scope === 'fs.read' ? granted.fsRead : granted.fsWrite;
        ok = r?.real !== undefined && roots.some((root) => within(r.real as string, root));
        if (r?.real === undefined) reason = 'the path cannot be resolved';
        break;
      }
      case 'net.http': {
        const p = parseScopeValue('net.http', value);
        ok = p.ok && granted.netHttp.some((g) => covers(g.value, p.value));
        break;
      }
      case 'exec': {
        const found = await lookupCommand(value, opts.pathEnv, { writable });
        ok = found.ok && granted.exec.some((g) => g.path === found.path);
        if (!found.ok) reason = `the command ${found.reason}`;
        if (!found.ok && found.writable !== undefined) code = 'POLICY_EXEC_WRITABLE';
        break;
      }
      case 'env':
        ok = granted.env.includes(value);
        break;
      default: {
        const never: never = scope;
        return never;
      }
    }
    if (!ok) denials.push({ scope, value, code, reason: `required ${scope} ${JSON.stringify(value)}: ${reason}` });
  }
  return denials;
}

function label(scope: PermissionScope, values: readonly string[]): string[] {
  return values.map((v) => `${scope}:${v}`);
}

/** Computes what an entrypoint may use under `policy`, and which required permissions are missing. */
export async function grantPermissions(requested: Permissions, required: Permissions, policy: HostPolicy, opts: GrantOptions): Promise<Grant> {
  const envRequested = list(requested, 'env');
  // What skills under this policy may write: each write grant as written and where it leads (or,
  // refused for a link, where the link leads now: another run under this policy may find a folder there).
  const writeReals = await Promise.all(policy.fsWrite.map(async (w) => resolveGrantPath(w, { writeGrants: [] })));
  const writable = unique([...policy.fsWrite, ...writeReals.flatMap((w) => (w.ok ? [w.real] : w.kind === 'user-writable' ? [w.leadsTo] : []))]);
  const read = await grantPaths('fs.read', list(requested, 'fs.read'), policy.fsRead, writable, opts.cwd);
  const write = await grantPaths('fs.write', list(requested, 'fs.write'), policy.fsWrite, writable, opts.cwd);
  const exec = await grantExec(list(requested, 'exec'), policy, opts.pathEnv, writable);
  const granted: GrantedPermissions = {
    fsRead: read.granted,
    fsWrite: write.granted,
    netHttp: grantNet(list(requested, 'net.http'), policy),
    exec: exec.granted,
    env: unique(envRequested.filter((n) => policy.env.includes(n))),
  };
  const denials: PermissionDenial[] = [...read.changed, ...write.changed, ...exec.writable];
  for (const scope of SCOPES) pushAll(denials, await checkRequired(scope, list(required, scope), granted, opts, writable));
  return {
    granted,
    requested: unique(SCOPES.flatMap((s) => label(s, list(requested, s)))),
    required: unique(SCOPES.flatMap((s) => label(s, list(required, s)))),
    grantedList: grantedLabels(granted),
    denials,
  };
}

/** `scope:value` labels of a grant, sorted. */
export function grantedLabels(g: GrantedPermissions): string[] {
  return unique([
    ...label('fs.read', g.fsRead),
    ...label('fs.write', g.fsWrite),
    ...label('net.http', g.netHttp.map((n) => n.raw)),
    ...label('exec', g.exec.map((e) => e.path)),
    ...label('env', g.env),
  ]);
}
