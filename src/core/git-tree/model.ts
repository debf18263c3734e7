/**
 * A git tree held in memory: the index (`git ls-files -s -z`) or a commit's tree
 * (`git ls-tree -r -z -l`), one entry a path. Only the listing is held; blob bytes are read on
 * demand through a `BlobReader`, so a tree of any size costs memory for its names alone.
 *
 * The listing is input like any file (a repository is attacker-controlled, DESIGN.md
 * "Confinement"): entries are parsed strictly, and a listing git would never produce (an
 * unknown mode, a path that is not clean, a file that is also a directory, an unmerged entry)
 * is refused whole rather than read in part.
 */
import { addFolders, type Sha256Digest } from '../digest/index.js';

/**
 * What a tree entry is, from its git mode: 100644 `file`, 100755 `executable` (the executable
 * bit of a content digest, exactly as a file on disk), 120000 `link` (a symbolic link whose blob
 * is its target), 160000 `submodule` (a commit of another repository: no content here).
 */
export type TreeEntryKind = 'file' | 'executable' | 'link' | 'submodule';

export interface TreeEntry {
  /** POSIX path from the top of the repository. */
  readonly path: string;
  readonly kind: TreeEntryKind;
  /** The object id (hex): a blob, or for a submodule a commit. */
  readonly oid: string;
  /** The blob's size in bytes (0 for a submodule). */
  readonly size: number;
}

export interface GitTree {
  /** What was read, for messages: `index`, or the commit id. */
  readonly label: string;
  readonly entries: ReadonlyMap<string, TreeEntry>;
}

/** Reads blobs of the repository the tree came from. */
export interface BlobReader {
  /** The blob's raw bytes (no filter, no conversion); `size` is the one the listing gave. */
  read(oid: string, size: number): Promise<Buffer>;
  /** sha256 of the blob's raw bytes, streamed: memory stays bounded whatever the size. */
  digest(oid: string, size: number): Promise<Sha256Digest>;
}

const KINDS: Readonly<Record<string, TreeEntryKind>> = { '100644': 'file', '100755': 'executable', '120000': 'link', '160000': 'submodule' };
const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** An entry before its size is known (`ls-files` gives none). */
export interface ListedEntry {
  readonly path: string;
  readonly kind: TreeEntryKind;
  readonly oid: string;
  /** From `ls-tree -l`; absent from `ls-files`. */
  readonly size?: number;
}

export type Parsed = { readonly entries: readonly ListedEntry[] } | { readonly reason: string };

const UTF8 = new TextDecoder('utf-8');

/** Why `path` is not a clean relative POSIX path, or undefined. */
function unclean(path: string): string | undefined {
  if (path === '' || path.startsWith('/')) return 'is empty or absolute';
  return path.split('/').some((p) => p === '' || p === '.' || p === '..') ? 'has an empty, . or .. segment' : undefined;
}

/** NUL-terminated records of `out`; undefined when the last one is not terminated. */
function records(out: Buffer): Buffer[] | undefined {
  const recs: Buffer[] = [];
  let start = 0;
  for (let i = out.indexOf(0); i !== -1; i = out.indexOf(0, start)) {
    recs.push(out.subarray(start, i));
    start = i + 1;
  }
  return start === out.length ? recs : undefined;
}

function entryOf(mode: string, oid: string, path: string, size: number | undefined): ListedEntry | string {
  const kind = KINDS[mode];
  if (kind === undefined) return `${JSON.stringify(path)} has mode ${mode}, which is not a file, link or submodule`;
  if (!OID.test(oid)) return `${JSON.stringify(path)} has no valid object id`;
  const bad = unclean(path);
  if (bad !== undefined) return `the path ${JSON.stringify(path)} ${bad}`;
  return { path, kind, oid, ...(size !== undefined ? { size } : {}) };
}

/**
 * Parses `out`, NUL-terminated records `<fields>\t<path>`: `fields` must match `line`, and
 * `build` makes the entry (or says why it is refused) from the match and the path.
 */
function parseRecords(out: Buffer, tool: string, line: RegExp, build: (m: RegExpExecArray, path: string) => ListedEntry | string): Parsed {
  const recs = records(out);
  if (recs === undefined) return { reason: `git ${tool} gave an answer that is not NUL-terminated` };
  const entries: ListedEntry[] = [];
  for (const rec of recs) {
    const tab = rec.indexOf(0x09);
    const m = tab === -1 ? null : line.exec(rec.subarray(0, tab).toString('latin1'));
    if (m === null) return { reason: `git ${tool} gave a line that is not understood` };
    const e = build(m, UTF8.decode(rec.subarray(tab + 1)));
    if (typeof e === 'string') return { reason: e };
    entries.push(e);
  }
  return { entries };
}

/**
 * The block `git ls-files --debug` prints after each entry; its `flags` are the entry's in-memory
 * flags. Matched whole at the point it must start, so a path cannot pass for one.
 */
const DEBUG_BLOCK = / {2}ctime: \d+:\d+\n {2}mtime: \d+:\d+\n {2}dev: \d+\tino: \d+\n {2}uid: \d+\tgid: \d+\n {2}size: \d+\tflags: ([0-9a-f]+)\n/y;
/** CE_INTENT_TO_ADD (git's cache.h): `git add -N`, an entry that `git commit` leaves out of the tree. */
const INTENT_TO_ADD = 0x20000000;
const LS_FILES_LINE = /^(\d{6}) ([0-9a-f]+) (\d)$/;

/**
 * `git ls-files -s -z --debug`: `<mode> <oid> <stage>\t<path>\0` then the debug block. An
 * unmerged entry (stage 1-3) is refused. An intent-to-add entry (`git add -N`) is left out, as
 * `git commit` leaves it out of the tree it records: listed, it reads as an empty file, so a
 * pinned empty file swapped for one would verify while the commit drops it.
 */
export function parseLsFiles(out: Buffer): Parsed {
  const entries: ListedEntry[] = [];
  const text = out.toString('latin1');
  for (let at = 0; at < out.length; ) {
    const nul = out.indexOf(0, at);
    if (nul === -1) return { reason: 'git ls-files gave an answer that is not NUL-terminated' };
    const tab = out.subarray(at, nul).indexOf(0x09);
    const m = tab === -1 ? null : LS_FILES_LINE.exec(text.slice(at, at + tab));
    if (m === null) return { reason: 'git ls-files gave a line that is not understood' };
    const path = UTF8.decode(out.subarray(at + tab + 1, nul));
    DEBUG_BLOCK.lastIndex = nul + 1;
    const debug = DEBUG_BLOCK.exec(text);
    if (debug === null) return { reason: 'git ls-files --debug gave an entry without its flags' };
    at = DEBUG_BLOCK.lastIndex;
    if ((parseInt(debug[1] as string, 16) & INTENT_TO_ADD) !== 0) continue;
    if (m[3] !== '0') return { reason: `the index has an unresolved conflict at ${path}: resolve it, then verify again` };
    const e = entryOf(m[1] as string, m[2] as string, path, undefined);
    if (typeof e === 'string') return { reason: e };
    entries.push(e);
  }
  return { entries };
}

/** `git ls-tree -r -z -l`: `<mode> <type> <oid> <size>\t<path>\0` (size `-` for a submodule). */
export function parseLsTree(out: Buffer): Parsed {
  return parseRecords(out, 'ls-tree', /^(\d{6}) (blob|commit) ([0-9a-f]+) +(\d+|-)$/, (m, path) => {
    const e = entryOf(m[1] as string, m[3] as string, path, m[4] === '-' ? 0 : Number(m[4]));
    if (typeof e !== 'string' && (e.kind === 'submodule') !== (m[2] === 'commit')) return `${JSON.stringify(e.path)}: mode and object type disagree`;
    return e;
  });
}

/**
 * The tree of `entries`, with each blob's size from `sizes` when the listing gave none. Refused
 * when a path is listed twice, is both a file and a directory, or has no size.
 */
export function toGitTree(label: string, entries: readonly ListedEntry[], sizes: ReadonlyMap<string, number> = new Map()): GitTree | { readonly reason: string } {
  const out = new Map<string, TreeEntry>();
  const dirs = new Set<string>();
  for (const e of entries) {
    const size = e.kind === 'submodule' ? 0 : (e.size ?? sizes.get(e.oid));
    if (size === undefined) return { reason: `no size is known for ${JSON.stringify(e.path)}` };
    if (out.has(e.path) || dirs.has(e.path)) return { reason: `${JSON.stringify(e.path)} is listed twice` };
    out.set(e.path, { path: e.path, kind: e.kind, oid: e.oid, size });
    addFolders(dirs, e.path);
  }
  for (const d of dirs) if (out.has(d)) return { reason: `${JSON.stringify(d)} is both a file and a directory` };
  return { label, entries: out };
}
