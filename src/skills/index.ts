/**
 * The built-in default bundle (seed 002): the ten skills the run engine executes for manifests
 * under manifests/default whose entrypoint says `runtime: builtin`, `command: builtin:<skill_id>`.
 * Each module imports only Node built-ins at load; heavier libraries load when a skill runs.
 */
import type { BuiltinSkill } from '../core/run/index.js';
import { extractText } from './extract.text.js';
import { fsReadText } from './fs.read_text.js';
import { fsReadTree } from './fs.read_tree.js';
import { fsWritePatch } from './fs.write_patch.js';
import { gitDiff } from './git.diff.js';
import { gitStatus } from './git.status.js';
import { httpFetchText } from './http.fetch_text.js';
import { jsonValidate } from './json.validate.js';
import { searchRipgrep } from './search.ripgrep.js';
import { shellExecSafe } from './shell.exec_safe.js';

const ALL: readonly BuiltinSkill[] = [
  extractText,
  fsReadText,
  fsReadTree,
  fsWritePatch,
  gitDiff,
  gitStatus,
  httpFetchText,
  jsonValidate,
  searchRipgrep,
  shellExecSafe,
];

/** skill_id -> implementation; `command: builtin:<skill_id>` names a key of this map. */
export const BUILTINS: ReadonlyMap<string, BuiltinSkill> = new Map(ALL.map((s) => [s.id, s]));
