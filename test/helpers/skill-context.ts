/**
 * TEST FIXTURE: a BuiltinContext for calling built-in skills in-process, without the run engine.
 *
 * Its PolicyGate, `FixtureGate`, is a small but real allowlist checker built on the policy
 * primitives of src/core/policy (parseScopeValue, covers, pathWithin): paths are resolved with
 * fs.realpath (the nearest existing ancestor for paths still to be created) and matched on
 * segment boundaries; URLs by scheme, host, effective port and path prefix; commands by name or
 * absolute path, resolved on the context's PATH. It records every check it answers, so tests can
 * assert that a skill asked before each operation. It is not the engine's gate.
 */
import { constants } from 'node:fs';
import { access, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { BuiltinContext, BuiltinLimits, PolicyDecision, PolicyGate } from '../../src/core/run/index.js';
import { covers, parseScopeValue, pathWithin, type ScopeValue } from '../../src/core/policy/index.js';

export interface FixturePolicy {
  readonly read?: readonly string[];
  readonly write?: readonly string[];
  readonly http?: readonly string[];
  readonly exec?: readonly string[];
  readonly env?: readonly string[];
}

export interface GateCall {
  readonly op: 'read' | 'write' | 'url' | 'exec' | 'env';
  readonly target: string;
  readonly allowed: boolean;
}

const CONTROL = /[\u0000-\u001f\u007f]/;

function deny(reason: string): PolicyDecision {
  return { allowed: false, code: 'SKILL_NOT_ALLOWED', reason };
}

/** realpath of `p`, or of its nearest existing ancestor joined with the rest (for new files). */
async function resolveReal(p: string): Promise<string> {
  const missing: string[] = [];
  let cur = p;
  for (;;) {
    try {
      const real = await realpath(cur);
      return missing.length === 0 ? real : join(real, ...missing.reverse());
    } catch {
      const parent = dirname(cur);
      if (parent === cur) return p;
      missing.push(basename(cur));
      cur = parent;
    }
  }
}

export class FixtureGate implements PolicyGate {
  readonly calls: GateCall[] = [];
  constructor(
    private readonly cwd: string,
    private readonly policy: FixturePolicy,
    private readonly env: Readonly<Record<string, string>>,
  ) {}

  private record(op: GateCall['op'], target: string, d: PolicyDecision): PolicyDecision {
    this.calls.push({ op, target, allowed: d.allowed });
    return d;
  }

  private async checkPath(op: 'read' | 'write', path: string, prefixes: readonly string[]): Promise<PolicyDecision> {
    if (path === '' || CONTROL.test(path)) return this.record(op, path, deny('empty path or control character'));
    const real = await resolveReal(resolve(this.cwd, path));
    for (const prefix of prefixes) {
      const root = await resolveReal(resolve(this.cwd, prefix));
      if (pathWithin(real, root)) return this.record(op, path, { allowed: true, resolved: real });
    }
    return this.record(op, path, deny(`${op} of ${real} is not allowed`));
  }

  checkRead(path: string): Promise<PolicyDecision> {
    return this.checkPath('read', path, this.policy.read ?? []);
  }

  checkWrite(path: string): Promise<PolicyDecision> {
    return this.checkPath('write', path, this.policy.write ?? []);
  }

  async checkUrl(raw: string): Promise<PolicyDecision> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return this.record('url', raw, deny('not a URL'));
    }
    if (url.username !== '' || url.password !== '') return this.record('url', raw, deny('userinfo in URL'));
    const bare = `${url.protocol}//${url.host}${url.pathname}`;
    const need = parseScopeValue('net.http', bare);
    if (!need.ok) return this.record('url', raw, deny(need.reason));
    const granted = (this.policy.http ?? []).map((v) => parseScopeValue('net.http', v)).flatMap((p) => (p.ok ? [p.value] : []));
    const ok = granted.some((g: ScopeValue) => covers(g, need.value));
    return this.record('url', raw, ok ? { allowed: true, resolved: url.href } : deny(`${bare} is not allowed`));
  }

  async checkExec(argv: readonly string[]): Promise<PolicyDecision> {
    const name = argv[0] ?? '';
    const target = argv.join(' ');
    if (!(this.policy.exec ?? []).includes(name)) return this.record('exec', target, deny(`command ${name} is not allowed`));
    if (isAbsolute(name)) return this.record('exec', target, { allowed: true, resolved: name });
    for (const dir of (this.env.PATH ?? '').split(':').filter((d) => d !== '')) {
      const candidate = join(dir, name);
      try {
        await access(candidate, constants.X_OK);
        return this.record('exec', target, { allowed: true, resolved: candidate });
      } catch {
        // not in this directory
      }
    }
    return this.record('exec', target, deny(`command ${name} is not on PATH`));
  }

  checkEnv(name: string): PolicyDecision {
    const ok = (this.policy.env ?? []).includes(name);
    return this.record('env', name, ok ? { allowed: true, resolved: name } : deny(`variable ${name} is not allowed`));
  }
}

export interface FixtureOptions {
  readonly cwd: string;
  readonly policy?: FixturePolicy;
  readonly limits?: Partial<BuiltinLimits>;
  readonly env?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

export const FIXTURE_LIMITS: BuiltinLimits = { timeoutMs: 30_000, maxOutputBytes: 1024 * 1024, memoryMiB: 512 };

/** A context whose policy allows exactly `policy` (by default: read inside cwd, nothing else). */
export function fixtureContext(opts: FixtureOptions): { ctx: BuiltinContext; gate: FixtureGate } {
  const env = opts.env ?? { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  const gate = new FixtureGate(opts.cwd, opts.policy ?? { read: ['.'] }, env);
  const ctx: BuiltinContext = {
    cwd: opts.cwd,
    policy: gate,
    limits: { ...FIXTURE_LIMITS, ...opts.limits },
    env,
    signal: opts.signal ?? new AbortController().signal,
    now: () => performance.now(),
  };
  return { ctx, gate };
}
