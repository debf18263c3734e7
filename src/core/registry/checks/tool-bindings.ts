import { diag, type Diagnostic } from '../../diagnostics.js';
import { entrypointMutates } from '../../manifest/index.js';
import { bundlePath } from '../bundle.js';
import { bindingKey, type Check } from './check.js';

/**
 * A tool bound to a skill entrypoint is executed by that entrypoint, so the contract the agent
 * sees (args_schema, result_schema) must be the one the entrypoint enforces (input_schema,
 * output_schema), and a tool presented as `read` must not be able to change anything: the
 * approval gate for writes would otherwise be skipped by a mislabelled tool.
 */

function escape(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Pointer (relative) of the first place where two JSON values differ, or undefined if equal. */
export function firstDifference(a: unknown, b: unknown, at = ''): string | undefined {
  if (a === b) return undefined;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) return at;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${at}/${i}`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const k of [...new Set([...Object.keys(ao), ...Object.keys(bo)])].sort()) {
    if (!(k in ao) || !(k in bo)) return `${at}/${escape(k)}`;
    const d = firstDifference(ao[k], bo[k], `${at}/${escape(k)}`);
    if (d !== undefined) return d;
  }
  return undefined;
}

export const toolBindings: Check = {
  name: 'tool-bindings',
  check({ bundle, bindings }) {
    const file = bundlePath(bundle.label, 'tools.json');
    const out: Diagnostic[] = [];
    for (const { value: tool, pointer } of bundle.tools) {
      const b = tool.binding;
      if (b === undefined) continue;
      const res = bindings.get(bindingKey(b.skill_id, b.entrypoint_id));
      if (res === undefined || !res.found) {
        out.push(
          diag('TOOL_BINDING_UNRESOLVED', `tool \`${tool.name}\` binds to ${b.skill_id} entrypoint ${b.entrypoint_id}: ${res?.reason ?? 'not resolved'}`, {
            file,
            pointer: `${pointer}/binding`,
            hint: 'bind to a skill `skillctl run` can find (pinned in the project\'s lock, or built in) and one of its entrypoint_ids',
          }),
        );
        continue;
      }
      const ep = res.entrypoint;
      const pairs = [
        ['args_schema', 'input_schema'],
        ['result_schema', 'output_schema'],
      ] as const;
      for (const [mine, theirs] of pairs) {
        const diff = firstDifference(tool[mine], ep[theirs]);
        if (diff !== undefined) {
          out.push(
            diag('TOOL_BINDING_MISMATCH', `tool \`${tool.name}\`'s ${mine} differs from ${theirs} of ${b.skill_id} (${res.source}) at ${diff === '' ? 'the root' : diff}`, {
              file,
              pointer: `${pointer}/${mine}${diff}`,
              hint: `copy ${theirs} of entrypoint ${b.entrypoint_id} verbatim: the entrypoint enforces it, not the tool`,
            }),
          );
        }
      }
      const why = entrypointMutates(ep);
      if (tool.policy.kind === 'read' && why !== undefined) {
        out.push(
          diag('TOOL_KIND_UNDERSTATED', `tool \`${tool.name}\` is declared read, but ${b.skill_id} has ${why}`, {
            file,
            pointer: `${pointer}/policy/kind`,
            hint: 'declare it "kind": "write" with "requires_approval": true',
          }),
        );
      }
    }
    return out;
  },
};
