/**
 * The checks on a skill entry before any file is read (SEP-2640 "Resources", "Frontmatter"):
 * the entry is the skill asked for, its path ends in its `name`, it lists its files with digests,
 * every file URI is a clean path inside the skill, each file once, SKILL.md among them, and the
 * declared sizes fit the bounds. Every finding is collected; any error stops the skill.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import type { Sha256Digest } from '../digest/index.js';
import type { SkillEntry } from './answers.js';
import type { PullLimits } from './limits.js';
import { collisionKey, filePathOf, parseSkillUri, SKILL_MD, type SkillUri } from './uri.js';

/** A file the entry promises: where it lands, and what it must be. */
export interface PlannedFile {
  readonly uri: string;
  /** POSIX path relative to the skill's folder. */
  readonly path: string;
  readonly digest: Sha256Digest;
  readonly size?: number;
}

export interface PlannedSkill {
  readonly skill: SkillUri;
  readonly entry: SkillEntry;
  /** In the entry's order. */
  readonly files: readonly PlannedFile[];
}

/** `asked`: the URI given on the command line (skills/get must answer for that one). */
export function checkEntry(entry: SkillEntry, limits: PullLimits, asked?: string): { readonly plan?: PlannedSkill; readonly diagnostics: readonly Diagnostic[] } {
  const file = entry.uri;
  const found: Diagnostic[] = [];
  if (asked !== undefined && entry.uri !== asked) {
    found.push(diag('MCP_PULL_URI_REFUSED', `skills/get for ${asked} answered with the entry of ${entry.uri}`, { file: asked, pointer: '/skill/uri' }));
    return { diagnostics: found };
  }
  const skill = parseSkillUri(entry.uri);
  if ('problem' in skill) return { diagnostics: [diag('MCP_PULL_URI_REFUSED', skill.problem, { file, pointer: '/uri' })] };
  if (entry.frontmatter.name !== skill.name) {
    found.push(
      diag('MCP_PULL_NAME_MISMATCH', `the skill's path ends in ${JSON.stringify(skill.name)} but its frontmatter name is ${JSON.stringify(entry.frontmatter.name)}`, {
        file,
        pointer: '/frontmatter/name',
        hint: 'the extension requires the last segment of <skill-path> to equal the name',
      }),
    );
  }
  if (entry.resources === undefined) {
    found.push(
      diag('MCP_PULL_NO_DIGESTS', 'the entry lists no resources: its files cannot be verified, so it is not pulled', { file, pointer: '/resources' }),
    );
    return { diagnostics: found };
  }
  if (entry.resources.length > limits.files) {
    found.push(diag('MCP_PULL_SKILL_TOO_LARGE', `the entry lists ${entry.resources.length} files; a pull takes at most ${limits.files}`, { file, pointer: '/resources' }));
    return { diagnostics: found };
  }
  const files: PlannedFile[] = [];
  const keys = new Map<string, string>();
  let declared = 0;
  for (const [i, r] of entry.resources.entries()) {
    const pointer = `/resources/${i}`;
    const p = filePathOf(skill, r.uri);
    if ('problem' in p) {
      found.push(diag('MCP_PULL_URI_REFUSED', p.problem, { file, pointer: `${pointer}/uri` }));
      continue;
    }
    const key = collisionKey(p.path);
    const same = keys.get(key);
    if (same !== undefined) {
      found.push(diag('MCP_PULL_RESOURCE_DUPLICATE', `${r.uri} lands on the same file as ${same}`, { file, pointer: `${pointer}/uri` }));
      continue;
    }
    keys.set(key, r.uri);
    if (r.size !== undefined) {
      declared += r.size;
      if (r.size > limits.fileBytes) {
        found.push(diag('MCP_PULL_FILE_TOO_LARGE', `${r.uri} is ${r.size} bytes; a pull reads at most ${limits.fileBytes} per file`, { file, pointer: `${pointer}/size` }));
      }
    }
    files.push({ uri: r.uri, path: p.path, digest: r.digest, ...(r.size !== undefined ? { size: r.size } : {}) });
  }
  // A file that is also a directory of another (`a` and `a/b`) cannot both be written.
  for (const f of files) {
    const parts = collisionKey(f.path).split('/');
    for (let n = 1; n < parts.length; n++) {
      const dir = keys.get(parts.slice(0, n).join('/'));
      if (dir !== undefined) found.push(diag('MCP_PULL_RESOURCE_DUPLICATE', `${f.uri} lies inside ${dir}, which is a file`, { file, pointer: '/resources' }));
    }
  }
  if (declared > limits.totalBytes) {
    found.push(diag('MCP_PULL_SKILL_TOO_LARGE', `the entry's files hold ${declared} bytes; a pull takes at most ${limits.totalBytes}`, { file, pointer: '/resources' }));
  }
  if (!files.some((f) => f.path === SKILL_MD)) {
    found.push(diag('MCP_PULL_FILE_UNLISTED', `the entry's resources leave out the skill's own ${entry.uri}`, { file, pointer: '/resources' }));
  }
  return found.some((d) => d.severity === 'error') ? { diagnostics: found } : { plan: { skill, entry, files }, diagnostics: found };
}
