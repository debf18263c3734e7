import { diag, type Diagnostic } from '../../diagnostics.js';
import { SKILL_MAX_BYTES, SKILL_MAX_FILES } from '../model.js';
import type { Check } from './check.js';

/** The MCP Skills extension's limits, which every host must accept: 512 files, 16 MiB. */
export const folderSize: Check = {
  name: 'folder-size',
  check({ files }) {
    if (files === undefined) return [];
    const out: Diagnostic[] = [];
    if (files.length > SKILL_MAX_FILES) {
      out.push(
        diag('AGENT_SKILL_TOO_MANY_FILES', `the skill has ${files.length} files; hosts must accept ${SKILL_MAX_FILES}, not more`, {
          hint: 'list generated or vendored files in .skillignore',
        }),
      );
    }
    const total = files.reduce((n, f) => n + f.size, 0);
    if (total > SKILL_MAX_BYTES) {
      out.push(
        diag('AGENT_SKILL_TOO_LARGE', `the skill holds ${total} bytes; hosts must accept ${SKILL_MAX_BYTES}, not more`, {
          hint: 'move large data out of the skill, or list it in .skillignore',
        }),
      );
    }
    return out;
  },
};
