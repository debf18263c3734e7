import { diag, type Diagnostic } from '../../diagnostics.js';
import { covers, parseScopeValue, type ScopeValue } from '../../policy/index.js';
import { commandArgv, PERMISSION_SCOPES, permissionValues, type PermissionScope } from '../model.js';
import type { EntrypointView, Rule } from './rule.js';

type Parsed = Map<PermissionScope, { raw: string; value: ScopeValue }[]>;

/** The values of one permissions mapping, parsed; undefined when the mapping cannot be read. */
function parsed(ep: EntrypointView, which: 'requested_permissions' | 'required_permissions', pointer: string, out: Diagnostic[]): Parsed | undefined {
  const permissions = ep[which];
  if (permissions === undefined) return undefined;
  const result: Parsed = new Map();
  for (const scope of PERMISSION_SCOPES) {
    const raw = permissions[scope];
    const list = permissionValues(raw);
    const values: { raw: string; value: ScopeValue }[] = [];
    list.forEach((v, i) => {
      const p = parseScopeValue(scope, v);
      if (p.ok) values.push({ raw: v, value: p.value });
      else {
        const at = typeof raw === 'string' ? `${pointer}/${which}/${scope}` : `${pointer}/${which}/${scope}/${i}`;
        out.push(diag('PERMISSION_VALUE_INVALID', `${scope} value ${JSON.stringify(v)}: ${p.reason}`, { pointer: at }));
      }
    });
    result.set(scope, values);
  }
  return result;
}

/** The environment an entrypoint needs: its own list, else the manifest-level default. */
function requiredEnv(ep: EntrypointView, data: Readonly<Record<string, unknown>>): string[] {
  if (ep.required_environment_variables !== undefined) return ep.required_environment_variables;
  const ctx = data.execution_context as { required_environment_variables?: unknown } | undefined;
  const inherited = ctx?.required_environment_variables;
  return Array.isArray(inherited) ? inherited.filter((v): v is string => typeof v === 'string') : [];
}

export const permissions: Rule = {
  name: 'permissions',
  check({ entrypoints, data }) {
    const out: Diagnostic[] = [];
    for (const { ep, pointer, unreadable, label } of entrypoints) {
      const requested = parsed(ep, 'requested_permissions', pointer, out);
      const required = parsed(ep, 'required_permissions', pointer, out);
      // What is undeclared is known only when what is requested can be read.
      if (requested === undefined) continue;
      for (const [scope, needs] of required ?? []) {
        const have = requested.get(scope) ?? [];
        for (const need of needs) {
          if (have.some((h) => covers(h.value, need.value))) continue;
          out.push(
            diag('PERMISSION_UNDECLARED', `entrypoint ${label} requires ${scope} ${JSON.stringify(need.raw)} but does not request it`, {
              pointer: `${pointer}/required_permissions/${scope}`,
              hint: `add ${JSON.stringify(need.raw)} (or a value covering it) to requested_permissions.${scope}`,
            }),
          );
        }
      }
      const envRequested = new Set((requested.get('env') ?? []).map((e) => e.raw));
      const envNeeded = unreadable.has('required_environment_variables') ? [] : requiredEnv(ep, data);
      for (const name of envNeeded) {
        if (envRequested.has(name)) continue;
        out.push(
          diag('ENV_NOT_REQUESTED', `entrypoint ${label} requires environment variable ${name} but does not request env: ${name}`, {
            pointer: `${pointer}/requested_permissions`,
            hint: 'the runner passes only requested and granted variables; add it to requested_permissions.env',
          }),
        );
      }
      // A shell entrypoint that runs a program from PATH is executing it: that must be requested.
      if (ep.runtime === 'shell' && ep.command !== undefined) {
        const program = commandArgv(ep.command)[0];
        if (program !== undefined && !program.includes('/')) {
          const need = parseScopeValue('exec', program);
          const execs = requested.get('exec') ?? [];
          if (need.ok && !execs.some((h) => covers(h.value, need.value))) {
            out.push(
              diag('PERMISSION_UNDECLARED', `entrypoint ${label} runs ${program} from PATH but does not request exec: ${program}`, {
                pointer: `${pointer}/command`,
                hint: `add ${program} to requested_permissions.exec and required_permissions.exec, or ship the program in the bundle`,
              }),
            );
          }
        }
      }
    }
    return out;
  },
};
