/**
 * Appending to the audit log. Each record is chained to the last record in the file, so the
 * last record must be read and the new one written without another writer in between: appends
 * take a lock file beside the log (`.<name>.lck`, the one lock of core/fs). The line is written
 * with one write(2) to a file opened with O_APPEND, so even a writer that ignores the lock never
 * interleaves bytes. A writer that died mid-line leaves a torn last line: the next append cuts
 * it off (it was never a record) before it writes; the `start` record of that run, already in the
 * log, still shows the run that never finished.
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isSha256Digest, sha256, type Sha256Digest } from '../digest/index.js';
import { errnoCode, SkillctlError } from '../errors.js';
import { linkBelow, lockPathOf, makeDirs, withFileLock, type FileLockOptions } from '../fs/index.js';
import { AUDIT_GENESIS, auditLine, sealRecord, type AuditRecord, type Sealed } from './audit.js';

export interface AuditLog {
  readonly path: string;
  /** Appends the record, chained to the log's last record; returns it as written. */
  append<R extends AuditRecord>(record: R): Promise<Sealed<R>>;
  close(): Promise<void>;
}

/** What a line contributes to the chain: its receipt_hash, or for a line that is not a record, the hash of its bytes. */
export function lineHash(line: Buffer | string): Sha256Digest {
  const text = typeof line === 'string' ? line : line.toString('utf8');
  try {
    const v = JSON.parse(text) as { receipt_hash?: unknown };
    if (v !== null && typeof v === 'object' && isSha256Digest(v.receipt_hash)) return v.receipt_hash;
  } catch {
    // not JSON: the bytes stand for it
  }
  return sha256(Buffer.from(text, 'utf8'));
}

/** Reads `span` bytes ending at `end`. */
async function tail(fh: FileHandle, end: number, span: number): Promise<Buffer> {
  const buf = Buffer.alloc(span);
  await fh.read(buf, 0, span, end - span);
  return buf;
}

/** The log's last complete line, without its newline; a torn tail (no final newline) is cut off first. */
async function lastLine(fh: FileHandle): Promise<Buffer | undefined> {
  let size = (await fh.stat()).size;
  let span = Math.min(size, 64 * 1024);
  while (size > 0) {
    const buf = await tail(fh, size, span);
    const nl = buf.lastIndexOf(0x0a);
    if (nl !== span - 1) {
      // Torn: keep everything up to the last newline (a writer died mid-line; it was never a record).
      if (nl === -1 && span < size) {
        span = Math.min(size, span * 4);
        continue;
      }
      size = nl === -1 ? 0 : size - span + nl + 1;
      await fh.truncate(size);
      span = Math.min(size, span);
      continue;
    }
    const start = buf.lastIndexOf(0x0a, nl - 1);
    if (start === -1 && span < size) {
      span = Math.min(size, span * 4);
      continue;
    }
    return buf.subarray(start + 1, nl);
  }
  return undefined;
}

export interface AuditLogPlace {
  /**
   * The project root (or working directory) when `path` is skillctl's default log there (no
   * `--audit`): a part of it below this root that is a link was put there by the repository, not
   * chosen by the user.
   */
  readonly defaultRoot?: string;
}

/**
 * Opens (creating it and its directory if needed) the log for appending. Called before a run
 * starts, so an unwritable log stops the run before anything executes. A default log
 * (`place.defaultRoot`) reached through a link is refused (AUDIT_UNWRITABLE): a cloned repository
 * may hold `.skillctl/audit.jsonl` (or `.skillctl`) as a link (git checks links out as links) to a
 * file of the user's, which every run, even a read-only one, then appended to, and whose last line
 * lacking a newline it cut off as a torn record (a file with no newline at all, to nothing).
 */
export async function openAuditLog(path: string, lock: FileLockOptions, place: AuditLogPlace = {}): Promise<AuditLog> {
  const linked = place.defaultRoot !== undefined ? await linkBelow(place.defaultRoot, path) : undefined;
  if (linked !== undefined) {
    throw new SkillctlError('AUDIT_UNWRITABLE', `${linked} is a link: the default audit log ${path} is written only inside the project`, {
      hint: 'remove the link, or name the log with --audit FILE',
    });
  }
  // The default log's own name is opened without following a link (ELOOP), should one appear after the check.
  const flags = place.defaultRoot !== undefined ? constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW : 'a+';
  let fh: FileHandle;
  try {
    await makeDirs(dirname(path));
    fh = await open(path, flags, 0o600);
  } catch (err) {
    throw new SkillctlError('AUDIT_UNWRITABLE', `cannot open the audit log ${path}: ${errnoCode(err) ?? String(err)}`, {
      cause: err,
      hint: 'choose another file with --audit FILE, or --no-audit',
    });
  }
  const lockPath = lockPathOf(path);
  return {
    path,
    append: <R extends AuditRecord>(record: R) =>
      withFileLock(lockPath, lock, async () => {
        // A full disk or a failing device while the log is read, cut or written is the file
        // system saying no, as at the open: AUDIT_UNWRITABLE (exit 2), not a bug in skillctl.
        const unwritable = (err: unknown): never => {
          throw new SkillctlError('AUDIT_UNWRITABLE', `cannot append to the audit log ${path}: ${errnoCode(err) ?? String(err)}`, { cause: err });
        };
        const last = await lastLine(fh).catch(unwritable);
        const sealed = sealRecord(record, last === undefined ? AUDIT_GENESIS : lineHash(last));
        const bytes = Buffer.from(auditLine(sealed), 'utf8');
        // One write of the whole line: O_APPEND makes its placement atomic among writers.
        const { bytesWritten } = await fh.write(bytes, 0, bytes.length).catch(unwritable);
        if (bytesWritten !== bytes.length) {
          throw new SkillctlError('AUDIT_UNWRITABLE', `short write to the audit log ${path} (${bytesWritten} of ${bytes.length} bytes)`);
        }
        return sealed;
      }),
    close: () => fh.close(),
  };
}
