import { diag, type Diagnostic } from '../../diagnostics.js';
import { bundlePath } from '../bundle.js';
import { MAX_TOOL_NAME, namespacedToolName } from '../model.js';
import type { Check } from './check.js';

/**
 * Tool names are unique within the bundle and across the registry, so that loading any set of
 * capabilities in one session never makes two tools answer to one name; and their namespaced
 * form `<capability_id>__<name>` stays within the 64 characters agent APIs accept.
 */
export const toolNames: Check = {
  name: 'tool-names',
  check({ bundle, others }) {
    const file = bundlePath(bundle.label, 'tools.json');
    const out: Diagnostic[] = [];
    const first = new Map<string, number>();
    const owner = new Map<string, string>();
    // A republish replaces the capability's own previous version, whose names do not collide
    // (also when capability.json has other faults: the id it declares is still its own).
    const self = bundle.meta?.capability_id ?? bundle.declaredId;
    for (const o of others ?? []) if (o.capability_id !== self) for (const t of o.tools) owner.set(t, o.capability_id);
    for (const { value: tool, pointer, index } of bundle.tools) {
      const at = `${pointer}/name`;
      const seen = first.get(tool.name);
      if (seen !== undefined) {
        out.push(diag('TOOL_NAME_DUPLICATE', `tool \`${tool.name}\` is defined twice (also at /tools/${seen})`, { file, pointer: at }));
      } else {
        first.set(tool.name, index);
      }
      const other = owner.get(tool.name);
      if (other !== undefined) {
        out.push(
          diag('TOOL_NAME_COLLISION', `tool \`${tool.name}\` is already published by capability \`${other}\``, {
            file,
            pointer: at,
            hint: `prefix the name with this capability's domain, e.g. ${bundle.meta?.capability_id ?? '<capability>'}_${tool.name}`,
          }),
        );
      }
      const id = bundle.meta?.capability_id;
      if (id !== undefined && namespacedToolName(id, tool.name).length > MAX_TOOL_NAME) {
        out.push(
          diag('TOOL_NAME_TOO_LONG', `namespaced name ${namespacedToolName(id, tool.name)} is longer than ${MAX_TOOL_NAME} characters`, {
            file,
            pointer: at,
            hint: 'shorten the tool name or the capability_id',
          }),
        );
      }
    }
    return out;
  },
};
