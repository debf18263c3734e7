/**
 * The guarded tar walk, fed in pieces of any size: the one place that decides which entries of an
 * attacker-controlled tar are regular files a bundle may hold. `readTgz` feeds it a whole inflated
 * archive in memory; `unpackTgz` feeds it an inflating stream and writes each accepted file as its
 * bytes arrive, so an archive of any size costs a few pieces of memory.
 *
 * Refused: absolute paths, `.`/`..` segments, backslashes and control characters, symbolic and
 * hard links, devices, FIFOs and sparse files, global pax headers that set fields, paths longer
 * than `MAX_PATH_BYTES`, duplicate paths and paths that are both a file and a directory, more
 * than `maxFiles` entries, or folders, or `maxTotalBytes` of files, any data after the
 * end-of-archive marker that is not zero padding, and what other readers take for another name
 * or other bytes than this walk does: pax keys of sparse files, two pax headers, two GNU long
 * names, or a pax path and a long name, for one entry, and a directory entry holding data. A
 * file is announced (`file`) only after its header passed every check, so a consumer never
 * writes a refused entry; its bytes follow (`data`) and `file-end` says they were all there.
 * Structural damage or a bound stops the walk; a bad entry is reported and skipped.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { PathTree } from './path-tree.js';
import { shownPath, unsafeArchivePath } from './paths.js';
import { BLOCK, decodeUtf8, isSparseKey, parseHeader, parsePax } from './tar.js';

/** How much an archive may hold: entries, and bytes once unpacked. */
export interface ArchiveBounds {
  readonly maxFiles: number;
  readonly maxTotalBytes: number;
}

export type TarEvent =
  | { readonly kind: 'file'; readonly path: string; readonly mode: number; readonly size: number }
  /** A piece of the current file: a view into the piece pushed, valid until the next push. */
  | { readonly kind: 'data'; readonly bytes: Buffer }
  | { readonly kind: 'file-end' };

/** pax and GNU long-name headers are read whole; real ones are a few hundred bytes. */
const META_MAX_BYTES = 1024 * 1024;

export function tooLarge(bounds: ArchiveBounds, what: string): Diagnostic {
  return diag('ARCHIVE_TOO_LARGE', `${what}; the bounds are ${bounds.maxFiles} entries and ${bounds.maxTotalBytes} bytes unpacked`, {
    hint: 'a larger bundle can be pinned as a directory',
  });
}

type State = 'header' | 'meta' | 'file' | 'skip' | 'pad' | 'trailer' | 'done';

export class TarWalk {
  readonly diagnostics: Diagnostic[] = [];
  private state: State = 'header';
  /** A header or meta entry being gathered across pieces. */
  private gathered: Buffer[] = [];
  private gatheredLen = 0;
  private need = BLOCK;
  private metaType = '';
  /** Data bytes left in the current entry, then padding bytes to its block boundary. */
  private remaining = 0;
  private pad = 0;
  /** Offset of the next byte fed, and of the current entry's header (for messages). */
  private off = 0;
  private headerOff = 0;
  private pax: Map<string, Buffer> | undefined;
  private longName: Buffer | undefined;
  private count = 0;
  private total = 0;
  /** The files passed on, and the folders their paths imply. */
  private readonly paths: PathTree;
  /** Paths of directory entries: they imply no folder, and are not counted as one. */
  private readonly dirs = new Set<string>();

  constructor(private readonly bounds: ArchiveBounds) {
    this.paths = new PathTree(bounds.maxFiles);
  }

  /** True once the walk stopped (the end, structural damage or a bound): later pieces are ignored. */
  get stopped(): boolean {
    return this.state === 'done';
  }

  push(piece: Buffer): TarEvent[] {
    const events: TarEvent[] = [];
    let i = 0;
    while (i < piece.length && this.state !== 'done') {
      const avail = piece.length - i;
      switch (this.state) {
        case 'trailer': {
          // Anything after the marker but zero padding would be invisible to this reader and visible to another.
          if (!piece.subarray(i).every((b) => b === 0)) this.malformed('data after the end-of-archive marker');
          i = piece.length;
          break;
        }
        case 'header':
        case 'meta': {
          const n = Math.min(this.need - this.gatheredLen, avail);
          this.gathered.push(piece.subarray(i, i + n));
          this.gatheredLen += n;
          i += n;
          this.off += n;
          if (this.gatheredLen === this.need) {
            const whole = this.gathered.length === 1 ? (this.gathered[0] as Buffer) : Buffer.concat(this.gathered);
            this.gathered = [];
            this.gatheredLen = 0;
            if (this.state === 'header') this.header(whole, events);
            else this.meta(whole);
          }
          break;
        }
        case 'file':
        case 'skip': {
          const n = Math.min(this.remaining, avail);
          if (this.state === 'file') events.push({ kind: 'data', bytes: piece.subarray(i, i + n) });
          this.remaining -= n;
          i += n;
          this.off += n;
          if (this.remaining === 0) this.afterData(events);
          break;
        }
        case 'pad': {
          const n = Math.min(this.pad, avail);
          this.pad -= n;
          i += n;
          this.off += n;
          if (this.pad === 0) this.expectHeader();
          break;
        }
      }
    }
    return events;
  }

  /** The input ended: an archive that stopped inside an entry or before its end marker is malformed. */
  end(): void {
    if (this.state === 'done' || this.state === 'trailer') return;
    if (this.state === 'header' || this.state === 'pad') this.malformed('the archive ends without an end-of-archive marker');
    else this.malformed(`entry at byte ${this.headerOff} is truncated`);
  }

  private malformed(message: string): void {
    this.diagnostics.push(diag('ARCHIVE_MALFORMED', message));
    this.state = 'done';
  }

  private refuse(d: Diagnostic): void {
    this.diagnostics.push(d);
    this.state = 'done';
  }

  private expectHeader(): void {
    this.state = 'header';
    this.need = BLOCK;
    this.headerOff = this.off;
  }

  private afterData(events: TarEvent[]): void {
    if (this.state === 'file') events.push({ kind: 'file-end' });
    if (this.pad > 0) this.state = 'pad';
    else this.expectHeader();
  }

  /** Consumes `size` data bytes of the current entry: passed on as a file's, or skipped. */
  private follow(size: number, as: 'file' | 'skip', events: TarEvent[]): void {
    this.remaining = size;
    this.pad = (BLOCK - (size % BLOCK)) % BLOCK;
    this.state = as;
    if (size === 0) this.afterData(events);
  }

  private header(block: Buffer, events: TarEvent[]): void {
    const parsed = parseHeader(block);
    if ('end' in parsed) {
      this.state = 'trailer';
      return;
    }
    if ('error' in parsed) return this.malformed(`header at byte ${this.headerOff}: ${parsed.error}`);
    const h = parsed.header;
    const paxSize = this.pax?.get('size')?.toString('latin1');
    // Not read past: GNU tar refuses such a size, and Python's tarfile takes it as 0 and reads the
    // entry's data as further entries, which this walk would have taken for the file's bytes.
    if (paxSize !== undefined && !/^[0-9]+$/.test(paxSize)) return this.malformed(`header at byte ${this.headerOff}: the pax size ${JSON.stringify(paxSize.slice(0, 40))} is not a decimal number`);
    const size = paxSize !== undefined ? Number(paxSize) : h.size;
    if (size > this.bounds.maxTotalBytes - this.total) return this.refuse(tooLarge(this.bounds, `an entry declares ${size} bytes`));
    if (h.type === 'x' || h.type === 'g' || h.type === 'L' || h.type === 'K') {
      if (size > META_MAX_BYTES) return this.refuse(tooLarge(this.bounds, `a ${h.type} header entry declares ${size} bytes`));
      this.metaType = h.type;
      this.need = size;
      this.pad = (BLOCK - (size % BLOCK)) % BLOCK;
      this.state = 'meta';
      if (size === 0) this.meta(Buffer.alloc(0));
      return;
    }
    const passed = this.entry(h.type, h.path, size, h.mode, events);
    // A bound passed stops the walk here: following the entry's data would start it again.
    if (!this.stopped) this.follow(size, passed ? 'file' : 'skip', events);
  }

  private meta(data: Buffer): void {
    const type = this.metaType;
    this.state = this.pad > 0 ? 'pad' : 'header';
    if (this.state === 'header') this.expectHeader();
    if (type === 'x') {
      // A second one for the same entry: GNU tar keeps the last, Python's tarfile merges them.
      if (this.pax !== undefined) return this.malformed('two pax extended headers for one entry, which other readers combine differently');
      this.pax = parsePax(data);
      if (this.pax === undefined) this.malformed('malformed pax extended header');
    } else if (type === 'g') {
      const keys = parsePax(data);
      if (keys === undefined) return this.malformed('malformed pax global header');
      // `git archive` writes a global header holding only the commit id; anything else would change how later entries are read.
      if ([...keys.keys()].some((k) => k !== 'comment')) this.diagnostics.push(diag('ARCHIVE_SPECIAL_ENTRY', 'a pax global header sets fields for later entries'));
    } else if (type === 'L') {
      // Two long names for one entry: GNU tar takes the last, Python's tarfile the first.
      if (this.longName !== undefined) return this.malformed('two GNU long-name headers for one entry, which other readers take differently');
      const nul = data.indexOf(0);
      this.longName = Buffer.from(data.subarray(0, nul === -1 ? data.length : nul));
    }
  }

  /** Checks one entry; true when it is a regular file to pass on (announced in `events`). */
  private entry(type: string, headerPath: Buffer, size: number, mode: number, events: TarEvent[]): boolean {
    const rawPath = this.pax?.get('path') ?? this.longName ?? headerPath;
    const hasLinkpath = this.pax?.has('linkpath') === true;
    // Both name the entry: GNU tar takes the pax path, Python's tarfile the long name after it.
    const twoNames = this.pax?.has('path') === true && this.longName !== undefined;
    const sparse = this.pax !== undefined && [...this.pax.keys()].some(isSparseKey);
    this.pax = undefined;
    this.longName = undefined;
    if (twoNames) {
      this.malformed('a pax path and a GNU long name for one entry, which other readers take differently');
      return false;
    }
    if (++this.count > this.bounds.maxFiles) {
      this.refuse(tooLarge(this.bounds, `more than ${this.bounds.maxFiles} entries`));
      return false;
    }
    let path = decodeUtf8(rawPath);
    const shown = path ?? rawPath.toString('latin1');
    if (path !== undefined) {
      while (path.startsWith('./')) path = path.slice(2);
      // Not /\/+$/: on a run of slashes not at the end, that pattern backtracks in the square of its length.
      let end = path.length;
      if (type === '5') while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end--;
      path = path.slice(0, end);
    }
    // GNU tar and Python's tarfile read a directory's data as the entries that follow: files this walk, which skips it, never sees.
    if (type === '5' && size > 0) {
      this.malformed(`directory entry ${shownPath(shown)} holds ${size} bytes of data, which other readers read as further entries`);
      return false;
    }
    if (type === '5' && path === '') return false; // the archive root itself
    const unsafe = path === undefined ? 'invalid UTF-8 in the path' : unsafeArchivePath(path);
    if (unsafe !== undefined || path === undefined) {
      // Located at the archive, not at the entry's path: joined to the archive's name, `../x` would name some other file.
      this.diagnostics.push(diag('ARCHIVE_PATH_UNSAFE', `entry ${shownPath(shown)}: ${unsafe ?? 'invalid path'}`));
      return false;
    }
    if (sparse) return this.skip(diag('ARCHIVE_SPECIAL_ENTRY', 'a pax header makes the entry a sparse file (GNU.sparse.*, SCHILY.realsize, SUN.holesdata), which other readers unpack under another name or with other bytes', { file: path }));
    switch (type) {
      case '0':
      case '7':
        if (hasLinkpath) return this.skip(diag('ARCHIVE_LINK', 'a regular-file entry carries a link target', { file: path }));
        if (this.dirs.has(path)) return this.skip(diag('ARCHIVE_DUPLICATE_ENTRY', 'the path occurs more than once', { file: path }));
        if (!this.placed(path)) return false;
        this.total += size;
        events.push({ kind: 'file', path, mode, size });
        return true;
      case '5':
        if (this.paths.hasFile(path)) this.diagnostics.push(diag('ARCHIVE_DUPLICATE_ENTRY', 'the path is both a file and a directory', { file: path }));
        this.dirs.add(path);
        return false;
      case '1':
      case '2':
        return this.skip(diag('ARCHIVE_LINK', `${type === '1' ? 'hard' : 'symbolic'} links are not allowed in a bundle`, { file: path }));
      default:
        return this.skip(diag('ARCHIVE_SPECIAL_ENTRY', `entry type ${JSON.stringify(type)} is not a regular file or directory`, { file: path }));
    }
  }

  /** Places a file's path among those passed on: false (with the finding) when it collides with one, or passes the folder bound. */
  private placed(path: string): boolean {
    const at = this.paths.place(path);
    switch (at.kind) {
      case 'placed':
        return true;
      case 'duplicate':
        return this.skip(diag('ARCHIVE_DUPLICATE_ENTRY', 'the path occurs more than once', { file: path }));
      case 'folder':
        return this.skip(diag('ARCHIVE_DUPLICATE_ENTRY', `${path} is a file and also a directory`, { file: at.first }));
      case 'below-file':
        return this.skip(diag('ARCHIVE_DUPLICATE_ENTRY', `${at.folder} is a file and also a directory`, { file: path }));
      case 'too-many-folders':
        this.refuse(tooLarge(this.bounds, `the paths name more than ${this.bounds.maxFiles} folders`));
        return false;
      default: {
        const never: never = at;
        return never;
      }
    }
  }

  private skip(d: Diagnostic): false {
    this.diagnostics.push(d);
    return false;
  }
}
