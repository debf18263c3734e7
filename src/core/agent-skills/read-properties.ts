/**
 * `skills-ref read-properties`: a skill's name, description and location, read as clients load
 * them (a folder that would fail validation for other reasons still loads).
 */
import { realpath, stat } from '../fs/callback-fs.js';
import { readBounded, refusalDiagnostic } from '../fs/read-bounded.js';
import { MANIFEST_MAX_BYTES } from '../manifest/index.js';
import { join } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';
import { errnoCode } from '../errors.js';
import type { AgentSkillProperties } from './model.js';
import { checkSkillMd, findSkillMd } from './validate.js';

export interface AgentSkillRead {
  /** SKILL.md as named in diagnostics. */
  readonly file: string;
  /** Absolute path of SKILL.md with symbolic links resolved, as to-prompt prints it. */
  readonly location?: string;
  readonly properties?: AgentSkillProperties;
  /** Why the properties could not be read: only what `read-properties` itself refuses. */
  readonly diagnostics: readonly Diagnostic[];
}

/** What stops `read-properties`: required fields missing, empty or not strings, allowed-tools of the wrong type. */
function blocksReading(d: Diagnostic): boolean {
  const p = d.pointer ?? '';
  if (d.code === 'AGENT_SKILL_FIELD_MISSING') return true;
  if (d.code === 'AGENT_SKILL_FIELD_EMPTY') return p === '/name' || p === '/description';
  if (d.code === 'AGENT_SKILL_FIELD_TYPE') return p === '/name' || p === '/description' || p.startsWith('/allowed-tools');
  return false;
}

/**
 * Reads a skill's properties as `skills-ref read-properties` does: SKILL.md must exist and parse,
 * and name and description must be non-empty strings; nothing else is judged (a name that does
 * not match its folder still loads, as clients do).
 */
export async function readAgentSkill(dir: string, label: string = dir): Promise<AgentSkillRead> {
  let real: string;
  try {
    real = await realpath(dir);
    if (!(await stat(real)).isDirectory()) return { file: label, diagnostics: [diag('BUNDLE_NOT_FOUND', `not a directory: ${label}`, { file: label })] };
  } catch (err) {
    return { file: label, diagnostics: [diag('BUNDLE_NOT_FOUND', `cannot read ${label}: ${errnoCode(err) ?? String(err)}`, { file: label })] };
  }
  const found = await findSkillMd(real);
  if ('diagnostic' in found) return { file: label, diagnostics: [{ ...found.diagnostic, file: label }] };
  const file = join(label, found.name);
  const read = await readBounded(found.path, { maxBytes: MANIFEST_MAX_BYTES });
  if (!read.ok) return { file, diagnostics: [{ ...refusalDiagnostic(read, found.name, 'MANIFEST_TOO_LARGE'), file }] };
  const check = checkSkillMd(read.bytes, { file });
  const parsed = check.document?.frontmatter !== undefined;
  const blocking = check.diagnostics.filter((d) => d.severity === 'error' && (!parsed || blocksReading(d)));
  if (check.properties === undefined || blocking.length > 0) return { file, diagnostics: blocking };
  return { file, location: join(real, found.name), properties: check.properties, diagnostics: [] };
}
