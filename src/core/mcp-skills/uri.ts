/**
 * Skill URIs of the MCP Skills extension (SEP-2640, "Resource Mapping"):
 * `skill://<skill-path>/<file-path>`, the skill's SKILL.md at `skill://<skill-path>/SKILL.md`, its
 * root `skill://<skill-path>`, and the last segment of `<skill-path>` its name.
 *
 * Every URI here comes from an untrusted server and a file path is made of it, so a file URI is
 * taken only when it is the skill's root followed by clean segments: no `.` or `..`, no empty
 * segment, no percent-encoded separator, NUL or control character, no query or fragment, and no
 * directory skillctl never takes into a bundle (.git, node_modules, .skillctl), in any spelling a
 * case-insensitive or normalising file system takes for it (`.GIT/config` is `.git/config` on
 * macOS and Windows: a repository whose config git obeys in the pulled folder), no skillctl lock
 * (`pins/skills.lock.json`: a project root of the server's making), nor any folder an
 * agent host loads skills from (`.claude/skills/`): a skill nested there is loaded under a name
 * of its own (Claude Code loads nested skill folders), one the collision check never saw. The
 * authority part is never resolved on the network (the SEP forbids it); it is only text.
 */
import { EXCLUDED_DIRS, EXCLUDED_NAMES, foldName, opensAsLock } from '../bundle/index.js';
import { LOCK_MARKER } from '../fs/index.js';
// The file, not the index: pins/ imports this folder.
import { AGENT_SKILL_ROOTS } from '../pins/skill-roots.js';

export const SKILL_SCHEME = 'skill://';
export const SKILL_MD = 'SKILL.md';

export interface SkillUri {
  /** The URI as given. */
  readonly uri: string;
  /** `skill://<skill-path>`, no trailing slash. */
  readonly root: string;
  /** The segments of `<skill-path>`, as written (not decoded). */
  readonly segments: readonly string[];
  /** The last segment: the skill's name, by the extension's rule. */
  readonly name: string;
}

/** Why a URI or a segment is refused; undefined when it is clean. */
function segmentProblem(raw: string): string | undefined {
  if (raw === '') return 'an empty segment';
  if (/[?#\\]/.test(raw)) return `${JSON.stringify(raw)} holds ?, # or a backslash`;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return `${JSON.stringify(raw)} is not valid percent-encoding`;
  }
  if (decoded === '.' || decoded === '..') return `a ${JSON.stringify(decoded)} segment`;
  if (/[/\\]/.test(decoded)) return `${JSON.stringify(raw)} encodes a path separator`;
  if (/[\u0000-\u001f\u007f]/.test(decoded)) return `${JSON.stringify(raw)} holds a control character`;
  return undefined;
}

/** The skill a `skill://…/SKILL.md` URI names, or why it is not one. */
export function parseSkillUri(uri: string): SkillUri | { readonly problem: string } {
  if (!uri.startsWith(SKILL_SCHEME)) return { problem: `${uri} is not a skill:// URI` };
  const rest = uri.slice(SKILL_SCHEME.length);
  const parts = rest.split('/');
  if (parts.length < 2 || parts[parts.length - 1] !== SKILL_MD) return { problem: `${uri} does not end in /${SKILL_MD}` };
  const segments = parts.slice(0, -1);
  for (const s of segments) {
    const p = segmentProblem(s);
    if (p !== undefined) return { problem: `${uri}: ${p}` };
  }
  return { uri, root: SKILL_SCHEME + segments.join('/'), segments, name: segments[segments.length - 1] as string };
}

/**
 * The POSIX path, relative to the skill's folder, of the file `fileUri` names, or why the URI is
 * refused. Segments are percent-decoded once, after the checks above.
 */
export function filePathOf(skill: SkillUri, fileUri: string): { readonly path: string } | { readonly problem: string } {
  const prefix = `${skill.root}/`;
  if (!fileUri.startsWith(prefix)) return { problem: `${fileUri} is not under ${skill.root}` };
  const raw = fileUri.slice(prefix.length).split('/');
  const decoded: string[] = [];
  for (const s of raw) {
    const p = segmentProblem(s);
    if (p !== undefined) return { problem: `${fileUri}: ${p}` };
    decoded.push(decodeURIComponent(s));
  }
  // The excluded names are spelt in lower case, as foldName spells every name.
  const excluded = decoded.slice(0, -1).find((d) => EXCLUDED_DIRS.has(foldName(d)));
  if (excluded !== undefined) return { problem: `${fileUri}: a file under ${excluded}/, which no skill folder holds` };
  const last = decoded[decoded.length - 1] as string;
  if (EXCLUDED_NAMES.has(foldName(last))) return { problem: `${fileUri}: a ${last} file, which no skill folder holds` };
  const dirs = `/${decoded.slice(0, -1).map(foldName).join('/')}/`;
  const root = AGENT_SKILL_ROOTS.find((r) => dirs.includes(`/${r}/`));
  if (root !== undefined) return { problem: `${fileUri}: a file under ${root}/, where an agent host loads it as a skill of its own, which the pull does not check` };
  // A lock makes the folder it lies in a project root to every skillctl started there: its lock
  // (`run demo.hello` there ran the server's copy of the project's pinned skill), keys and policy.
  if (opensAsLock(decoded.join('/'))) {
    return { problem: `${fileUri}: a ${LOCK_MARKER}, which makes the folder holding it a project of its own (its lock, keys and policy) to skillctl started there` };
  }
  return { path: decoded.join('/') };
}

/**
 * The key two paths collide on when written: a case-insensitive or normalising file system (macOS,
 * Windows) stores `A.md` and `a.md`, NFC and NFD forms of one name, `a.md` and `a.md.` (Windows)
 * or a name with a code point HFS+ ignores, as one file (foldName, segment by segment).
 */
export function collisionKey(path: string): string {
  return path.split('/').map(foldName).join('/');
}
