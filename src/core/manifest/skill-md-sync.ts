/**
 * A SKILL.md that `skillctl convert` wrote from a bundle's manifest records where it came from
 * (`metadata.skillctl.skill_id` and `metadata.skillctl.skill_version`, agent-skills/to-skill-md.ts).
 * When the manifest moves on (a new version, a new description) and SKILL.md does not, agents
 * read a description of another version: SKILL_MD_STALE says so, with `convert` as the fix. A
 * SKILL.md written by hand (no such metadata) is the author's, and is not compared.
 */
import { join } from 'node:path';
import type { BundleFile, BundleSource } from '../bundle/index.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { parseDocumentBytes } from './parse.js';

const NAMES = ['SKILL.md', 'skill.md'];
/** A SKILL.md beyond this is not one convert wrote: not read for this check. */
const MAX_BYTES = 1024 * 1024;

/** The frontmatter's text and the line it starts on, when the file opens with one. */
function frontmatter(text: string): { yaml: string; firstLine: number } | undefined {
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  if (!/^---[ \t]*\r?$/.test(lines[0] ?? '')) return undefined;
  const end = lines.findIndex((l, i) => i > 0 && /^---[ \t]*\r?$/.test(l));
  return end === -1 ? undefined : { yaml: lines.slice(1, end).join('\n'), firstLine: 2 };
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export interface SkillMdSyncInput {
  readonly source: BundleSource;
  readonly files: readonly BundleFile[];
  /** The manifest's top-level mapping (any types: it may not have passed the schema). */
  readonly data: Readonly<Record<string, unknown>>;
  /** How the bundle is named in findings. */
  readonly label: string;
}

/** SKILL_MD_STALE for each field a convert-written SKILL.md no longer agrees with the manifest on. */
export async function checkSkillMdSync({ source, files, data, label }: SkillMdSyncInput): Promise<Diagnostic[]> {
  const file = files.find((f) => NAMES.includes(f.path));
  if (file === undefined || file.size > MAX_BYTES) return [];
  let bytes: Uint8Array;
  try {
    bytes = await source.read(file.path);
  } catch {
    return []; // an unreadable file is the bundle reader's finding, not this one's
  }
  const fm = frontmatter(Buffer.from(bytes).toString('utf8'));
  if (fm === undefined) return [];
  const doc = parseDocumentBytes(Buffer.from(fm.yaml, 'utf8'), 'yaml', 'frontmatter');
  const front = doc.data as Record<string, unknown> | undefined;
  const meta = front?.metadata;
  const recorded = meta !== null && typeof meta === 'object' ? (meta as Record<string, unknown>) : undefined;
  if (str(recorded?.['skillctl.skill_id']) === undefined) return [];
  const where = join(label, file.path);
  const hint = `skillctl convert ${label} --to skill-md --force writes it again from the manifest`;
  const out: Diagnostic[] = [];
  const compare = (pointer: string, what: string, theirs: string | undefined, ours: string | undefined, shown: boolean): void => {
    if (theirs === undefined || ours === undefined || theirs.trim() === ours.trim()) return;
    const p = doc.locate(pointer);
    const message = shown
      ? `${file.path} was written by skillctl convert for ${what} ${theirs}; the manifest now says ${ours}`
      : `${file.path} was written by skillctl convert; its ${what} is no longer the manifest's`;
    out.push(diag('SKILL_MD_STALE', message, { file: where, pointer, ...(p !== undefined ? { line: p.line + fm.firstLine - 1, column: p.column } : {}), hint }));
  };
  compare('/metadata/skillctl.skill_id', 'skill_id', str(recorded?.['skillctl.skill_id']), str(data.skill_id), true);
  compare('/metadata/skillctl.skill_version', 'skill_version', str(recorded?.['skillctl.skill_version']), str(data.skill_version), true);
  compare('/description', 'description', str(front?.description), str(data.description), false);
  return out;
}
