/**
 * The `.skill` file that Claude's upload and Anthropic's package_skill.py use: a ZIP archive
 * holding one top-level folder named after the skill. Unlike package_skill.py (file-system order,
 * real timestamps) the archive is reproducible byte for byte: entries sorted by UTF-8 path, fixed
 * timestamps and attributes, pinned pure-JS deflate (./zip.ts).
 */
import { diag, hasErrors, type Diagnostic } from '../diagnostics.js';
import { sha256, type FileMode, type Sha256Digest } from '../digest/index.js';
import { writeZip, type ZipEntry, type ZipEntryInfo } from './zip.js';

/**
 * What the packer reads the folder through. A bundle source (src/core/bundle) is one; the shape is
 * declared here so that archive/, which bundle/ reads archives with, does not depend on bundle/.
 */
export interface SkillZipSource {
  list(): Promise<{ readonly files: readonly SkillZipFile[]; readonly diagnostics: readonly Diagnostic[] }>;
  read(path: string): Promise<Buffer>;
}

interface SkillZipFile {
  readonly path: string;
  readonly mode: FileMode;
}

/** Directory names package_skill.py leaves out at any depth. */
export const SKILL_ZIP_EXCLUDED_DIRS: readonly string[] = ['__pycache__', 'node_modules'];
/** File names and suffixes package_skill.py leaves out. */
export const SKILL_ZIP_EXCLUDED_FILES: readonly string[] = ['.DS_Store'];
export const SKILL_ZIP_EXCLUDED_SUFFIXES: readonly string[] = ['.pyc'];
/** Root directories package_skill.py leaves out (evaluation data is not part of the skill). */
export const SKILL_ZIP_EXCLUDED_ROOT_DIRS: readonly string[] = ['evals'];

/** Whether package_skill.py would leave `path` (relative to the skill folder) out of the archive. */
export function excludedFromSkillZip(path: string): boolean {
  const parts = path.split('/');
  const base = parts.at(-1) as string;
  if (parts.slice(0, -1).some((p) => SKILL_ZIP_EXCLUDED_DIRS.includes(p))) return true;
  if (parts.length > 1 && SKILL_ZIP_EXCLUDED_ROOT_DIRS.includes(parts[0] as string)) return true;
  return SKILL_ZIP_EXCLUDED_FILES.includes(base) || SKILL_ZIP_EXCLUDED_SUFFIXES.some((s) => base.endsWith(s));
}

export interface SkillZip {
  /** The archive, when every file could be read and no listing error occurred. */
  readonly bytes?: Buffer;
  readonly digest?: Sha256Digest;
  /** What went in, in archive order (paths inside the top-level folder). */
  readonly entries: readonly ZipEntryInfo[];
  /** Files of the folder left out by the documented exclusions. */
  readonly excluded: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Packs the skill folder read through `source` as `<folder>/...` entries. Fails closed: a
 * symlink, special file or unreadable file gives findings and no archive.
 */
export async function packSkillZip(source: SkillZipSource, folder: string): Promise<SkillZip> {
  if (folder === '' || folder === '.' || folder === '..' || /[/\\\u0000-\u001f]/.test(folder)) {
    return { entries: [], excluded: [], diagnostics: [diag('BUNDLE_PATH_INVALID', `${JSON.stringify(folder)} cannot name the archive's top-level folder`)] };
  }
  const listing = await source.list();
  const diagnostics: Diagnostic[] = [...listing.diagnostics];
  const included: SkillZipFile[] = [];
  const excluded: string[] = [];
  for (const f of listing.files) {
    if (excludedFromSkillZip(f.path)) excluded.push(f.path);
    else included.push(f);
  }
  if (hasErrors(diagnostics)) return { entries: [], excluded, diagnostics };
  const entries: ZipEntry[] = [];
  for (const f of included) {
    try {
      entries.push({ path: `${folder}/${f.path}`, data: await source.read(f.path), mode: f.mode });
    } catch (err) {
      diagnostics.push(diag('BUNDLE_UNREADABLE', `cannot read file: ${err instanceof Error ? err.message : String(err)}`, { file: f.path }));
    }
  }
  if (hasErrors(diagnostics)) return { entries: [], excluded, diagnostics };
  // listing.files is already in UTF-8 byte order of path; the common prefix keeps that order.
  const zip = await writeZip(entries);
  if (zip.value === undefined) return { entries: [], excluded, diagnostics: [...diagnostics, ...zip.diagnostics] };
  const { bytes } = zip.value;
  return { bytes, digest: sha256(bytes), entries: zip.value.entries, excluded, diagnostics };
}
