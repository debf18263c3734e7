/**
 * The answers of an MCP server, turned once into typed values (or refused). The server is
 * untrusted, so nothing it sends is used before it passed here: the SDK only frames JSON-RPC, the
 * shapes of the extension's results (SEP-2640) and of the resource reads are checked here.
 */
import { isSha256Digest, type Sha256Digest } from '../digest/index.js';

export interface EntryResource {
  readonly uri: string;
  readonly digest: Sha256Digest;
  /** Bytes; the SEP's entries need not carry it, the Inspector's and skillctl's do. */
  readonly size?: number;
}

/** A skill entry of `skills/list` or `skills/get`. */
export interface SkillEntry {
  readonly uri: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** Absent for a skill whose content is generated (it cannot be verified). */
  readonly resources?: readonly EntryResource[];
}

export interface SkillPage {
  readonly skills: readonly SkillEntry[];
  readonly nextCursor?: string;
}

/** One content item of `resources/read`. */
export interface ReadContent {
  readonly uri: string;
  readonly bytes: Buffer;
}

/** One resource of `resources/list` or `resources/directory/read`. */
export interface ListedResource {
  readonly uri: string;
  readonly isDirectory: boolean;
}

export interface ResourcePage {
  readonly resources: readonly ListedResource[];
  readonly nextCursor?: string;
}

/** A value refused, with the JSON pointer into the answer where it went wrong. */
export interface Refusal {
  readonly problem: string;
}

type Parsed<T> = { readonly value: T } | Refusal;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const bad = (pointer: string, what: string): Refusal => ({ problem: `${pointer === '' ? 'the result' : pointer} ${what}` });

function cursorOf(r: Record<string, unknown>): Parsed<string | undefined> {
  const c = r.nextCursor;
  if (c === undefined || c === null) return { value: undefined };
  return typeof c === 'string' ? { value: c } : bad('/nextCursor', 'is not a string');
}

function toResource(v: unknown, at: string): Parsed<EntryResource> {
  if (!isObject(v)) return bad(at, 'is not an object');
  if (typeof v.uri !== 'string') return bad(`${at}/uri`, 'is not a string');
  if (!isSha256Digest(v.digest)) return bad(`${at}/digest`, 'is not sha256: and 64 lowercase hex digits');
  if (v.size === undefined) return { value: { uri: v.uri, digest: v.digest } };
  if (typeof v.size !== 'number' || !Number.isSafeInteger(v.size) || v.size < 0) return bad(`${at}/size`, 'is not a byte count');
  return { value: { uri: v.uri, digest: v.digest, size: v.size } };
}

/** A skill entry (SEP-2640 "Result fields"). */
export function toSkillEntry(v: unknown, at: string): Parsed<SkillEntry> {
  if (!isObject(v)) return bad(at, 'is not an object');
  if (typeof v.uri !== 'string') return bad(`${at}/uri`, 'is not a string');
  if (!isObject(v.frontmatter)) return bad(`${at}/frontmatter`, 'is not an object');
  if (v.resources === undefined || v.resources === 'dynamic') return { value: { uri: v.uri, frontmatter: v.frontmatter } };
  if (!Array.isArray(v.resources)) return bad(`${at}/resources`, 'is not an array');
  const resources: EntryResource[] = [];
  for (const [i, r] of v.resources.entries()) {
    const p = toResource(r, `${at}/resources/${i}`);
    if ('problem' in p) return p;
    resources.push(p.value);
  }
  return { value: { uri: v.uri, frontmatter: v.frontmatter, resources } };
}

/** The result of `skills/get`: `{ skill }`. */
export function toGetResult(v: unknown): Parsed<SkillEntry> {
  if (!isObject(v)) return bad('', 'is not an object');
  return toSkillEntry(v.skill, '/skill');
}

/** A page of `skills/list`: `{ skills, nextCursor? }`. */
export function toSkillPage(v: unknown): Parsed<SkillPage> {
  if (!isObject(v)) return bad('', 'is not an object');
  if (!Array.isArray(v.skills)) return bad('/skills', 'is not an array');
  const cursor = cursorOf(v);
  if ('problem' in cursor) return cursor;
  const skills: SkillEntry[] = [];
  for (const [i, s] of v.skills.entries()) {
    const e = toSkillEntry(s, `/skills/${i}`);
    if ('problem' in e) return e;
    skills.push(e.value);
  }
  return { value: cursor.value === undefined ? { skills } : { skills, nextCursor: cursor.value } };
}

/**
 * The result of `resources/read` for `uri`: exactly one content item, of that URI, as text
 * (UTF-8) or blob (base64). Base64 is decoded strictly: Node's decoder skips what is not base64,
 * which would let two different blobs give the same bytes.
 */
export function toReadResult(v: unknown, uri: string): Parsed<ReadContent> {
  if (!isObject(v)) return bad('', 'is not an object');
  if (!Array.isArray(v.contents) || v.contents.length !== 1) return bad('/contents', 'is not an array of one item');
  const c: unknown = v.contents[0];
  if (!isObject(c)) return bad('/contents/0', 'is not an object');
  if (c.uri !== uri) return bad('/contents/0/uri', `is not ${uri}`);
  if (typeof c.text === 'string' && c.blob === undefined) return { value: { uri, bytes: Buffer.from(c.text, 'utf8') } };
  if (typeof c.blob === 'string' && c.text === undefined) {
    if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(c.blob)) return bad('/contents/0/blob', 'is not base64');
    return { value: { uri, bytes: Buffer.from(c.blob, 'base64') } };
  }
  return bad('/contents/0', 'has neither text nor blob, or both');
}

/** A page of `resources/list` or `resources/directory/read`: `{ resources, nextCursor? }`. */
export function toResourcePage(v: unknown): Parsed<ResourcePage> {
  if (!isObject(v)) return bad('', 'is not an object');
  if (!Array.isArray(v.resources)) return bad('/resources', 'is not an array');
  const cursor = cursorOf(v);
  if ('problem' in cursor) return cursor;
  const resources: ListedResource[] = [];
  for (const [i, r] of v.resources.entries()) {
    if (!isObject(r) || typeof r.uri !== 'string') return bad(`/resources/${i}/uri`, 'is not a string');
    resources.push({ uri: r.uri, isDirectory: r.mimeType === 'inode/directory' });
  }
  return { value: cursor.value === undefined ? { resources } : { resources, nextCursor: cursor.value } };
}
