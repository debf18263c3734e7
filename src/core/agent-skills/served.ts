/**
 * Agent Skills as the MCP Skills extension (SEP-2640, `io.modelcontextprotocol/skills`) serves
 * them: each SKILL.md folder with its frontmatter, verbatim, and every file with its size and
 * sha256 digest, so a host can check each file it reads against the listing. The extension
 * makes a file the listing lacks a verification failure, so a folder is served whole or not at
 * all: a symbolic link, special file or unreadable entry anywhere in it, or a SKILL.md that
 * `validate` rejects, keeps the skill out, and the finding says why. A skill's URI is its name,
 * which the folder's name must equal (the rule `validate` checks), so two folders of one name in
 * different roots serve the first and report the other (AGENT_SKILL_NAME_DUPLICATE).
 */
import { basename, join } from 'node:path';
import { dirSource, hashFiles, type BundleSource } from '../bundle/index.js';
import { diag, hasErrors, type Diagnostic } from '../diagnostics.js';
import type { Sha256Digest } from '../digest/index.js';
import { errnoCode } from '../errors.js';
import { pushAll } from '../findings.js';
import { checkSkillMd } from './validate.js';

/** The one file name the extension knows a skill by. */
export const SERVED_SKILL_MD = 'SKILL.md';

export interface ServedFile {
  /** POSIX path relative to the skill's folder. */
  readonly path: string;
  readonly size: number;
  readonly digest: Sha256Digest;
}

export interface ServedSkill {
  /** The frontmatter `name`, equal to the folder's name. */
  readonly name: string;
  /** How the folder is named in findings (relative to the project root). */
  readonly label: string;
  /** The frontmatter as parsed, every field, as the extension's `skills/list` carries it. */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** Every file of the folder (SKILL.md included), in path order; .skillignore'd files are not part of it. */
  readonly files: readonly ServedFile[];
  /** Reads one listed file; the caller checks that `path` is one of `files`. */
  readonly source: BundleSource;
}

export interface ServedSkills {
  readonly skills: readonly ServedSkill[];
  /** Why a folder is not served. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * One folder (`dir` absolute, `label` as findings name it). No skill and no finding when the
 * folder holds no SKILL.md: it is a skill.yaml bundle, which the capability registry serves.
 */
export async function readServedSkill(dir: string, label: string): Promise<{ readonly skill?: ServedSkill; readonly diagnostics: readonly Diagnostic[] }> {
  const source = dirSource(dir);
  const listing = await source.list();
  if (!listing.files.some((f) => f.path === SERVED_SKILL_MD)) return { diagnostics: [] };
  const at = (d: Diagnostic): Diagnostic => ({ ...d, file: d.file !== undefined ? join(label, d.file) : label });
  if (hasErrors(listing.diagnostics)) return { diagnostics: listing.diagnostics.filter((d) => d.severity === 'error').map(at) };
  const file = join(label, SERVED_SKILL_MD);
  let bytes: Buffer;
  try {
    bytes = await source.read(SERVED_SKILL_MD);
  } catch (err) {
    return { diagnostics: [diag('BUNDLE_UNREADABLE', `cannot read ${SERVED_SKILL_MD}: ${errnoCode(err) ?? String(err)}`, { file })] };
  }
  const checked = checkSkillMd(bytes, { file, dirLabel: label, dirName: basename(dir), files: listing.files });
  const frontmatter = checked.document?.frontmatter;
  const errors = checked.diagnostics.filter((d) => d.severity === 'error');
  if (checked.properties === undefined || frontmatter === undefined || errors.length > 0) return { diagnostics: errors };
  const hashed = await hashFiles(source, listing.files);
  if (hasErrors(hashed.diagnostics)) return { diagnostics: hashed.diagnostics.map(at) };
  const files = hashed.files.map((f) => ({ path: f.path, size: f.size, digest: f.digest }));
  return { skill: { name: checked.properties.name, label, frontmatter, files, source }, diagnostics: [] };
}

/** The folders in order; of two with one name, the first. */
export async function readServedSkills(folders: readonly { readonly dir: string; readonly label: string }[]): Promise<ServedSkills> {
  const skills: ServedSkill[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const { dir, label } of folders) {
    const r = await readServedSkill(dir, label);
    pushAll(diagnostics, r.diagnostics);
    if (r.skill === undefined) continue;
    const first = skills.find((s) => s.name === r.skill?.name);
    if (first !== undefined) {
      diagnostics.push(
        diag('AGENT_SKILL_NAME_DUPLICATE', `skill name ${JSON.stringify(r.skill.name)} is also used by ${first.label}; only that one is served`, {
          file: join(label, SERVED_SKILL_MD),
          hint: 'agents tell skills apart by name; rename one of them',
        }),
      );
    } else skills.push(r.skill);
  }
  return { skills, diagnostics };
}
