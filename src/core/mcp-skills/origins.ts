/**
 * Where each pulled skill came from: `.skillctl/mcp-origins.json` in the project root, keyed by
 * the folder the skill was written to (relative to the root). The SEP makes a skill's identity
 * the pair (server, uri), and asks a host to keep that origin durably wherever it keeps the
 * content: this record is how a later pull tells an update of the same skill from a different
 * skill of the same name, and how `pin` binds a pin to the resource set it was pulled as. It lives
 * under `.skillctl/`, which no skill may write (docs/security.md), never inside the skill folder,
 * whose files are exactly the entry's resources.
 */
import { isAbsolute, join, relative, sep } from 'node:path';
import { writeFileAtomic, makeDirs, type Maker } from '../fs/index.js';
import { readBounded } from '../fs/read-bounded.js';
import { isSha256Digest, type Sha256Digest } from '../digest/index.js';
import type { ServerAddress } from './connection.js';

export const ORIGINS_FILE = '.skillctl/mcp-origins.json';
/**
 * The project's write lock for pulls (file-lock.ts, beside the file it guards as pin's is): held
 * from the collision check to the origin write, so two pulls neither lose each other's records
 * nor both take a name that was free when each looked.
 */
export const ORIGINS_LOCK = '.skillctl/.mcp-origins.json.lck';
const MAX_BYTES = 64 * 1024 * 1024;

export interface OriginFile {
  readonly path: string;
  readonly digest: Sha256Digest;
  readonly size: number;
}

export interface McpOrigin {
  readonly server: ServerAddress;
  /** The skill's SKILL.md URI on that server. */
  readonly uri: string;
  /** The entry's resource set as verified, in path order. */
  readonly files: readonly OriginFile[];
}

export type Origins = Readonly<Record<string, McpOrigin>>;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function toServer(v: unknown): ServerAddress | undefined {
  if (!isObject(v)) return undefined;
  if (typeof v.url === 'string' && v.command === undefined) return { url: v.url };
  if (Array.isArray(v.command) && v.command.length > 0 && v.command.every((a) => typeof a === 'string') && v.url === undefined) return { command: v.command as string[] };
  return undefined;
}

function toOrigin(v: unknown): McpOrigin | undefined {
  if (!isObject(v) || typeof v.uri !== 'string' || !Array.isArray(v.files)) return undefined;
  const server = toServer(v.server);
  const files: OriginFile[] = [];
  for (const f of v.files as unknown[]) {
    if (!isObject(f) || typeof f.path !== 'string' || !isSha256Digest(f.digest) || typeof f.size !== 'number') return undefined;
    files.push({ path: f.path, digest: f.digest, size: f.size });
  }
  return server === undefined ? undefined : { server, uri: v.uri, files };
}

/**
 * The project's records; none when the file does not exist. A record that is not well formed is
 * left out, so a folder it named counts as a local skill (the safe side: it is never replaced).
 */
export async function readOrigins(root: string): Promise<Origins> {
  const read = await readBounded(join(root, ...ORIGINS_FILE.split('/')), { maxBytes: MAX_BYTES });
  if (!read.ok) return {};
  let data: unknown;
  try {
    data = JSON.parse(read.bytes.toString('utf8'));
  } catch {
    return {};
  }
  const skills = isObject(data) && isObject(data.skills) ? data.skills : {};
  const out: Record<string, McpOrigin> = {};
  for (const [k, v] of Object.entries(skills)) {
    const o = toOrigin(v);
    if (o !== undefined) out[k] = o;
  }
  return out;
}

/** The key of a folder in the origin records: relative to the root when inside it. */
export function originKey(root: string, dir: string): string {
  const rel = relative(root, dir);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? dir : rel.split(sep).join('/');
}

/** Same server and same skill URI: the identity of an MCP-served skill. */
export function sameOrigin(a: Pick<McpOrigin, 'server' | 'uri'>, b: Pick<McpOrigin, 'server' | 'uri'>): boolean {
  if (a.uri !== b.uri) return false;
  if ('url' in a.server || 'url' in b.server) return 'url' in a.server && 'url' in b.server && a.server.url === b.server.url;
  const x = a.server.command;
  const y = b.server.command;
  return x.length === y.length && x.every((s, i) => s === y[i]);
}

/** Whether two records (or their absence) are the same, as the file would hold them. */
export function sameRecord(a: McpOrigin | undefined, b: McpOrigin | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The records as the file holds them, keys sorted. */
export function renderOrigins(origins: Origins): string {
  const sorted = Object.fromEntries(Object.keys(origins).sort().map((k) => [k, origins[k]]));
  return `${JSON.stringify({ version: 1, skills: sorted }, null, 2)}\n`;
}

/** Writes records rendered by `renderOrigins`, atomically; `writer` (the lock's holder) is named in the temporary file, for leftovers.ts. */
export async function writeOrigins(root: string, text: string, writer: Maker): Promise<void> {
  await makeDirs(join(root, '.skillctl'));
  await writeFileAtomic(join(root, ...ORIGINS_FILE.split('/')), text, 0o644, writer);
}
