/**
 * Loads `skillctl.policy.yaml` (or JSON): parse with the hostile-document guards, check the
 * schema, then every allowlist entry. Any finding makes the policy unusable (fail closed): a
 * run never proceeds under a policy that was only partly understood.
 */
import { resolve } from 'node:path';
import { diag, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import { sha256 } from '../digest/index.js';
import { schemaErrorsToDiagnostics, type StandaloneValidator } from '../json-schema/index.js';
import { parseLimit } from '../manifest/limits.js';
import { parseDocumentBytes, type DocumentFormat } from '../manifest/parse.js';
import { validate as validatePolicySchema } from '../../generated/policy-v1.validator.js';
import policySchema from '../../../schemas/policy.v1.schema.json' with { type: 'json' };
import { RUN_PATH_DEFAULT } from './default.js';
import { globPattern } from './glob.js';
import type { ExecRule, HostPolicy, PolicyLimits } from './model.js';
import { parseScopeValue, type ScopeValue } from './scopes.js';
import { pushAll } from '../findings.js';

const validator = validatePolicySchema as StandaloneValidator;


export interface PolicyLoad {
  /** Present only when there is no error. */
  readonly policy?: HostPolicy;
  readonly diagnostics: readonly Diagnostic[];
}

export interface LoadPolicyOptions {
  /** How to name the file in diagnostics and audit records. */
  readonly file: string;
  /** Directory relative fs paths resolve against (the policy file's directory). */
  readonly baseDir: string;
  readonly format?: DocumentFormat;
}

interface PolicyDocument {
  version: 1;
  permissions?: {
    'fs.read'?: string[];
    'fs.write'?: string[];
    'net.http'?: string[];
    exec?: (string | ExecRule)[];
    env?: string[];
  };
  limits?: { max_execution_time?: number | string; max_memory?: number | string; max_output_bytes?: number | string };
  allow_unsandboxed?: boolean;
  allow_container_network?: boolean;
  path?: string[];
}

function duplicates(values: readonly string[], at: string, out: Diagnostic[]): void {
  const seen = new Set<string>();
  values.forEach((v, i) => {
    if (seen.has(v)) out.push(diag('POLICY_DUPLICATE_ENTRY', `${JSON.stringify(v)} is listed twice`, { pointer: `${at}/${i}` }));
    seen.add(v);
  });
}

function paths(list: readonly string[] | undefined, scope: 'fs.read' | 'fs.write', baseDir: string, out: Diagnostic[]): string[] {
  const result: string[] = [];
  (list ?? []).forEach((raw, i) => {
    const p = parseScopeValue(scope, raw);
    if (!p.ok) {
      out.push(diag('POLICY_VALUE_INVALID', `${scope} ${JSON.stringify(raw)}: ${p.reason}`, { pointer: `/permissions/${scope}/${i}` }));
      return;
    }
    const v = p.value as ScopeValue & { scope: 'fs.read' | 'fs.write' };
    result.push(v.absolute ? v.path : resolve(baseDir, v.path));
  });
  duplicates(result, `/permissions/${scope}`, out);
  return result;
}

function execRules(list: readonly (string | ExecRule)[] | undefined, out: Diagnostic[]): ExecRule[] {
  const rules: ExecRule[] = [];
  (list ?? []).forEach((entry, i) => {
    const rule: ExecRule = typeof entry === 'string' ? { command: entry } : entry;
    const at = `/permissions/exec/${i}`;
    const p = parseScopeValue('exec', rule.command);
    if (!p.ok) {
      out.push(diag('POLICY_VALUE_INVALID', `exec ${JSON.stringify(rule.command)}: ${p.reason}`, { pointer: typeof entry === 'string' ? at : `${at}/command` }));
      return;
    }
    for (const key of ['args', 'deny_args'] as const) {
      (rule[key] ?? []).forEach((pattern, j) => {
        if (globPattern(pattern) === undefined) {
          out.push(diag('POLICY_VALUE_INVALID', `argument pattern ${JSON.stringify(pattern)} contains NUL`, { pointer: `${at}/${key}/${j}` }));
        }
      });
    }
    rules.push({ ...rule, command: (p.value as ScopeValue & { scope: 'exec' }).command });
  });
  duplicates(
    rules.map((r) => r.command),
    '/permissions/exec',
    out,
  );
  return rules;
}

function limits(doc: PolicyDocument, out: Diagnostic[]): PolicyLimits {
  const l = doc.limits ?? {};
  const result: { -readonly [K in keyof PolicyLimits]: PolicyLimits[K] } = {};
  const fields = [
    ['max_execution_time', 'timeoutMs'],
    ['max_memory', 'memoryMiB'],
    ['max_output_bytes', 'maxOutputBytes'],
  ] as const;
  for (const [field, key] of fields) {
    const raw = l[field];
    if (raw === undefined) continue;
    const v = parseLimit(field, raw);
    if (v === undefined) out.push(diag('POLICY_VALUE_INVALID', `${field} ${JSON.stringify(raw)} is not a positive amount`, { pointer: `/limits/${field}` }));
    else result[key] = v;
  }
  return result;
}

function build(doc: PolicyDocument, source: string, digest: HostPolicy['digest'], baseDir: string, out: Diagnostic[]): HostPolicy {
  const perms = doc.permissions ?? {};
  const netHttp: HostPolicy['netHttp'][number][] = [];
  (perms['net.http'] ?? []).forEach((raw, i) => {
    const p = parseScopeValue('net.http', raw);
    if (p.ok) netHttp.push({ raw, value: p.value as ScopeValue & { scope: 'net.http' } });
    else out.push(diag('POLICY_VALUE_INVALID', `net.http ${JSON.stringify(raw)}: ${p.reason}`, { pointer: `/permissions/net.http/${i}` }));
  });
  duplicates(perms['net.http'] ?? [], '/permissions/net.http', out);
  const env = perms.env ?? [];
  duplicates(env, '/permissions/env', out);
  return {
    source,
    digest,
    fsRead: paths(perms['fs.read'], 'fs.read', baseDir, out),
    fsWrite: paths(perms['fs.write'], 'fs.write', baseDir, out),
    netHttp,
    exec: execRules(perms.exec, out),
    env,
    limits: limits(doc, out),
    allowUnsandboxed: doc.allow_unsandboxed === true,
    allowContainerNetwork: doc.allow_container_network === true,
    runPath: doc.path !== undefined ? doc.path.join(':') : RUN_PATH_DEFAULT,
  };
}

/** Parses and checks a policy document. `policy` is set only when there is no error. */
export function loadPolicy(bytes: Uint8Array, opts: LoadPolicyOptions): PolicyLoad {
  const format = opts.format ?? (opts.file.toLowerCase().endsWith('.json') ? 'json' : 'yaml');
  const doc = parseDocumentBytes(bytes, format, 'policy');
  const found: Diagnostic[] = [...doc.diagnostics];
  let policy: HostPolicy | undefined;
  if (doc.data !== undefined) {
    if (!validator(doc.data)) {
      pushAll(found, schemaErrorsToDiagnostics(validator.errors ?? [], doc.data, { schema: policySchema as Record<string, unknown> }));
    } else {
      policy = build(doc.data as PolicyDocument, opts.file, sha256(bytes), opts.baseDir, found);
    }
  }
  const located: Diagnostic[] = found.map((d) => {
    const p = d.pointer !== undefined && d.line === undefined ? doc.locate(d.pointer, { key: d.code === 'SCHEMA_UNKNOWN_FIELD' }) : undefined;
    return { ...d, file: d.file ?? opts.file, ...(p !== undefined ? { line: p.line, column: p.column } : {}) };
  });
  if (located.some((d) => d.severity === 'error')) {
    located.push(diag('POLICY_INVALID', 'the host policy has errors; nothing runs until they are fixed', { file: opts.file }));
    return { diagnostics: sortDiagnostics(located) };
  }
  return { ...(policy !== undefined ? { policy } : {}), diagnostics: sortDiagnostics(located) };
}
