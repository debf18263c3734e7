/**
 * `skillctl mcp --skills`: Agent Skills served through the MCP Skills extension (SEP-2640,
 * `io.modelcontextprotocol/skills`): `skills/list` (paged) and `skills/get` give each skill's
 * frontmatter and every file with its size and sha256 digest; `resources/read` a file's bytes as
 * `skill://<skill-path>/<file-path>`; `resources/directory/read` the children of a directory of a
 * skill. Every listing checks the folders afresh (directory listings and digests are kept by
 * identity), so an entry's digests are those of the files as they are. Only a file the skill's
 * listing names is ever read, and only if it is still the file that was hashed and its bytes
 * hash to the listed digest (a read may use the skill's last entry while its directories and
 * SKILL.md are unchanged; the file itself is always checked): a URI is looked up in the
 * listing, never joined onto a path.
 */
import { ErrorCode, type ReadResourceResult, type Resource } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { readServedFile, SERVED_SKILL_MD, ServedFileChanged, type LookupOptions, type ServedFile, type ServedSkill, type ServedSkills } from '../core/agent-skills/index.js';
import { errnoCode } from '../core/errors.js';
import { SnapshotPages } from './paging.js';
import { children, fileResource, mimeOf, skillUri } from './skill-resources.js';

export { skillUri } from './skill-resources.js';
import type { Handle } from './handle.js';
import { RPC, RpcError } from './wire/errors.js';
import { withRawJson } from './wire/raw-json.js';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

const SKILL_SCHEME = 'skill://';

/** The largest file `resources/read` returns, whole, in one message. */
export const MAX_SERVED_FILE_BYTES = 16 * 1024 * 1024;

/** Listings kept for their later pages (of skills/list, and of resources/list: resources.ts). */
export const MAX_SNAPSHOTS = 8;

/** Directory listings kept for their later pages. */
const MAX_DIRECTORY_SNAPSHOTS = 64;

/** Children a page of `resources/directory/read` carries. */
export const DIRECTORY_PAGE_SIZE = 1000;

/** Skills a page of `skills/list` carries (an entry is never split across pages). */
export const SKILLS_PAGE_SIZE = 200;

/** The skills a server offers, read afresh on each call. */
export interface SkillCatalogue {
  /** The skills, and why any folder is not served. */
  list(): Promise<ServedSkills>;
  /** The skill at `path` (`acme/billing/refunds`), or undefined. */
  get(path: string): Promise<ServedSkill | undefined>;
  /**
   * The skill at the longest leading run of the segments of `path` (`<skill-path>/<file-path>`)
   * that is one, its `path` that run, for a read of one of its files: its last entry while its
   * shape is unchanged, else as `get`.
   */
  lookup(path: string, opts?: LookupOptions): Promise<ServedSkill | undefined>;
  /** A read found `file` not to be what the entry says: nothing kept of it is used again. */
  forget(skill: ServedSkill, file: ServedFile): void;
  /** The server is done: stops what the catalogue runs beside it (its checker thread). */
  close(): void;
}

const SkillsListRequestSchema = z.object({ method: z.literal('skills/list'), params: z.optional(z.looseObject({ cursor: z.optional(z.string()) })) });
const SkillsGetRequestSchema = z.object({ method: z.literal('skills/get'), params: z.looseObject({ uri: z.string() }) });
const DirectoryReadRequestSchema = z.object({ method: z.literal('resources/directory/read'), params: z.looseObject({ uri: z.string(), cursor: z.optional(z.string()) }) });

/**
 * The longest `<skill-path>/<file-path>` a URI can name on a platform, once decoded: `max` UTF-8
 * bytes or UTF-16 code units, as the platform counts a path, in at most `(max + 1) / 2` segments
 * (a unit and a separator each). Every file is listed and opened by its absolute path, so none
 * below a root has a longer one. POSIX systems refuse a path past PATH_MAX bytes (4,096 with its
 * NUL on Linux; 1,024 on macOS and the BSDs, so 4,096 refuses nothing they open). Windows counts
 * UTF-16 units, and node opens every path in its `\\?\` form (path.toNamespacedPath), so MAX_PATH
 * (260) does not apply, long paths enabled or not: the limit is 32,767 units, up to 98,301 UTF-8
 * bytes. A URI past the bound names nothing served and is answered at once as any unknown URI
 * (16,000 segments took 13 s and 1.1 GB without it, when each split was walked from the root).
 */
export interface UriPathBound {
  readonly max: number;
  readonly unit: 'byte' | 'utf16';
}

/** The bound of `platform` (`process.platform`'s values), described above. */
export function uriPathBound(platform: NodeJS.Platform): UriPathBound {
  return platform === 'win32' ? { max: 32_767, unit: 'utf16' } : { max: 4_096, unit: 'byte' };
}

/** This platform's bound. */
export const URI_PATH_BOUND: UriPathBound = uriPathBound(process.platform);

/**
 * URI characters a decoded unit may take: a byte is `%41` at most (a character left as it is
 * decodes to one byte or more); a UTF-16 unit of a three-byte character is nine (`%E2%82%AC`).
 */
const URI_CHARS_PER_UNIT = { byte: 3, utf16: 9 } as const satisfies Record<UriPathBound['unit'], number>;

/**
 * The decoded segments of a `skill://` URI, or undefined (not one, an empty, `.` or `..`
 * segment, or past `bound`).
 */
export function segmentsOf(uri: string, bound: UriPathBound = URI_PATH_BOUND): string[] | undefined {
  // A longer URI is over the bound however it decodes: unread.
  if (uri.length > SKILL_SCHEME.length + URI_CHARS_PER_UNIT[bound.unit] * bound.max) return undefined;
  const m = /^skill:\/\/([^?#]+)$/.exec(uri);
  if (m === null) return undefined;
  const raw = (m[1] as string).split('/');
  if (raw.length > Math.floor((bound.max + 1) / 2)) return undefined;
  try {
    const segs = raw.map(decodeURIComponent);
    if (!segs.every((s) => s !== '' && s !== '.' && s !== '..' && !s.includes('/'))) return undefined;
    const path = segs.join('/');
    return (bound.unit === 'byte' ? Buffer.byteLength(path) : path.length) <= bound.max ? segs : undefined;
  } catch {
    return undefined;
  }
}

// An unchanged skill is the same object from listing to listing (served-cache.ts): its entry,
// and the entry's JSON text, are made once.
const entries = new WeakMap<ServedSkill, { readonly entry: Record<string, unknown>; readonly json: string }>();

function madeEntry(s: ServedSkill): { readonly entry: Record<string, unknown>; readonly json: string } {
  let made = entries.get(s);
  if (made === undefined) {
    const entry = {
      uri: skillUri(s.path, SERVED_SKILL_MD),
      frontmatter: s.frontmatter,
      resources: s.files.map((f) => ({ uri: skillUri(s.path, f.path), digest: f.digest, size: f.size })),
    };
    made = { entry, json: JSON.stringify(entry) };
    entries.set(s, made);
  }
  return made;
}

const entryOf = (s: ServedSkill): Record<string, unknown> => madeEntry(s).entry;

/** A page of `skills/list`, carrying its JSON text, joined from its entries' (wire/raw-json.ts). */
export function skillsPage(items: readonly ServedSkill[], nextCursor: string | undefined): { skills: Record<string, unknown>[]; nextCursor?: string } {
  const made = items.map(madeEntry);
  const page = { skills: made.map((m) => m.entry), ...(nextCursor !== undefined ? { nextCursor } : {}) };
  const cursor = nextCursor !== undefined ? `,"nextCursor":${JSON.stringify(nextCursor)}` : '';
  return withRawJson(page, `{"skills":[${made.map((m) => m.json).join(',')}]${cursor}}`);
}

// Each entry's files by path, made once per entry: a read finds its file without a scan of 1,000.
const filesByPath = new WeakMap<ServedSkill, ReadonlyMap<string, ServedFile>>();

function fileOf(s: ServedSkill, path: string): ServedFile | undefined {
  let byPath = filesByPath.get(s);
  if (byPath === undefined) filesByPath.set(s, (byPath = new Map(s.files.map((f) => [f.path, f]))));
  return byPath.get(path);
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Text when the bytes are UTF-8 and survive the round trip a host makes (TextEncoder of the text); a base64 blob otherwise. */
function contentOf(uri: string, path: string, bytes: Buffer): ReadResourceResult['contents'][number] {
  const mime = mimeOf(path);
  try {
    const text = utf8.decode(bytes);
    return { uri, mimeType: mime ?? 'text/plain', text };
  } catch {
    return { uri, mimeType: mime ?? 'application/octet-stream', blob: bytes.toString('base64') };
  }
}

/**
 * The skill a URI lies in, and the file it names (undefined for the skill's root): `fresh` lists
 * it afresh, `lookup` says what the last entry may be used for (catalogue.lookup).
 */
async function resolve(catalogue: SkillCatalogue, uri: string, fresh: boolean, lookup?: LookupOptions): Promise<{ skill: ServedSkill; file: string | undefined } | undefined> {
  const segs = segmentsOf(uri);
  if (segs === undefined) return undefined;
  const whole = segs.join('/');
  const skill = await catalogue.lookup(whole, fresh ? { fresh: true } : lookup);
  if (skill === undefined) return undefined;
  if (skill.path === whole) return { skill, file: undefined };
  // The file is what follows the skill's path; a skill not at a run of the URI names nothing of it.
  return whole.startsWith(`${skill.path}/`) ? { skill, file: whole.slice(skill.path.length + 1) } : undefined;
}

/** `resources/read` of a `skill://` URI; -32002 for a URI that is not a listed file (a skill deleted since it was read included). */
export async function readSkillResource(catalogue: SkillCatalogue, uri: string): Promise<ReadResourceResult> {
  // Twice at most: the skill's last entry (whose checks reads arriving together share), then, if
  // the file is not one it lists or not the one it lists, a fresh listing.
  for (let attempt = 0; attempt < 2; attempt++) {
    const found = await resolve(catalogue, uri, attempt > 0, { file: true });
    const file = found?.file !== undefined ? fileOf(found.skill, found.file) : undefined;
    if (found === undefined || file === undefined) {
      if (attempt === 0) continue;
      throw new RpcError(RPC.RESOURCE_NOT_FOUND, `Resource not found: ${uri} is not a file of a skill this server serves`);
    }
    if (file.size > MAX_SERVED_FILE_BYTES) throw new RpcError(RPC.INVALID_PARAMS, `Invalid params: ${uri} is ${file.size} bytes, more than the ${MAX_SERVED_FILE_BYTES} a read returns`);
    try {
      return { contents: [contentOf(uri, file.path, await readServedFile(found.skill.dir, file, found.skill.base, found.skill.baseId))] };
    } catch (err) {
      // A file gone (or a directory on its path) after the entry was taken from a shared pass may
      // be a skill deleted meanwhile: the fresh listing says so, and drops its entry.
      const gone = attempt === 0 && (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ENOTDIR');
      if (!(err instanceof ServedFileChanged) && !gone) throw new RpcError(RPC.RESOURCE_NOT_FOUND, `Resource not found: ${uri} cannot be read`);
      catalogue.forget(found.skill, file);
    }
  }
  throw new RpcError(RPC.INTERNAL_ERROR, `${uri} is changing while it is read; read it again`);
}

/** Every file of every skill, as resources. */
export async function skillResources(catalogue: SkillCatalogue): Promise<Resource[]> {
  return (await catalogue.list()).skills.flatMap((s) => s.files.map((f) => fileResource(s, f)));
}

/** Registers the extension's methods on the server (declared with `resources` and the extension). */
export function serveSkills(handle: Handle, catalogue: SkillCatalogue): void {
  // The pages of one listing come from one snapshot of it (paging.ts), so a host walking the
  // pages sees one point in time and the server lists the folders once per walk.
  const listings = new SnapshotPages<ServedSkill>(MAX_SNAPSHOTS);
  handle(SkillsListRequestSchema, async (req) => {
    const { items, nextCursor } = await listings.page(req.params?.cursor, SKILLS_PAGE_SIZE, async () => (await catalogue.list()).skills);
    return skillsPage(items, nextCursor);
  });
  handle(SkillsGetRequestSchema, async (req) => {
    const { uri } = req.params;
    const segs = segmentsOf(uri);
    const skill = segs !== undefined && segs.at(-1) === SERVED_SKILL_MD && segs.length > 1 ? await catalogue.get(segs.slice(0, -1).join('/')) : undefined;
    if (skill === undefined) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: ${uri} is not the SKILL.md of a skill this server serves`);
    return { skill: entryOf(skill) };
  });
  // A directory's pages likewise, each snapshot kept for the URI it lists; more of them, since a
  // walk reads many directories at once (pull reads 16).
  const directories = new SnapshotPages<Resource>(MAX_DIRECTORY_SNAPSHOTS);
  handle(DirectoryReadRequestSchema, async (req) => {
    const { uri } = req.params;
    const take = async (): Promise<Resource[]> => {
      // Which files a skill has depends only on its shape (directories, SKILL.md, .skillignore), which lookup checks.
      const found = await resolve(catalogue, uri, false);
      const kids = found !== undefined ? children(found.skill, found.file ?? '') : undefined;
      if (kids === undefined) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: ${uri} is not a directory of a skill this server serves`);
      return kids;
    };
    const { items, nextCursor } = await directories.page(req.params.cursor, DIRECTORY_PAGE_SIZE, take, uri);
    return { resources: items, ...(nextCursor !== undefined ? { nextCursor } : {}) };
  });
}
