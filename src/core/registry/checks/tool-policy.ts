import { diag, type Diagnostic } from '../../diagnostics.js';
import { bundlePath } from '../bundle.js';
import type { Check } from './check.js';

/** A write tool that needs no approval changes the user's data on the agent's word alone. */
export const toolPolicy: Check = {
  name: 'tool-policy',
  check({ bundle }) {
    const out: Diagnostic[] = [];
    for (const { value: tool, pointer } of bundle.tools) {
      if (tool.policy.kind === 'write' && tool.policy.requires_approval !== true) {
        out.push(
          diag('TOOL_WRITE_UNGUARDED', `write tool \`${tool.name}\` does not require approval`, {
            file: bundlePath(bundle.label, 'tools.json'),
            pointer: `${pointer}/policy`,
            hint: 'set "requires_approval": true unless the write is harmless to repeat',
          }),
        );
      }
    }
    return out;
  },
};
