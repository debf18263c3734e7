/** `skillctl audit verify [FILE|-]`: the log read (bounded), its receipts checked by the core. */
import { join, resolve } from 'node:path';
import { isSha256Digest } from '../../../core/digest/index.js';
import { SkillctlError } from '../../../core/errors.js';
import { findProjectRoot, readInputFile } from '../../../core/fs/index.js';
import { DEFAULT_AUDIT_PATH, verifyAuditLog } from '../../../core/run/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { readStdin } from '../../io.js';
import { auditJson, renderAudit } from '../../render/audit.js';

/** Audit logs grow; this bounds what one verification reads into memory. */
const MAX_LOG_BYTES = 256 * 1024 ** 2;

export async function run(ctx: Context, file: string | undefined, head?: string): Promise<number> {
  if (head !== undefined && !isSha256Digest(head)) throw new SkillctlError('USAGE', `--head ${head}: a receipt_hash such as sha256:9f2c… (64 hex digits)`);
  let path: string;
  let text: string;
  if (file === '-') {
    path = '-';
    const bytes = await readStdin(ctx.io, MAX_LOG_BYTES);
    if (bytes === undefined) throw new SkillctlError('INPUT_UNREADABLE', `the audit log on stdin exceeds ${MAX_LOG_BYTES} bytes`);
    text = bytes.toString('utf8');
  } else {
    path = file !== undefined ? resolve(ctx.io.cwd, file) : join((await findProjectRoot(ctx.io.cwd)) ?? ctx.io.cwd, DEFAULT_AUDIT_PATH);
    // A FIFO or a device is refused before it is opened; a log over the bound, unread (core/fs).
    text = (await readInputFile(path, `the audit log ${path}`, { maxBytes: MAX_LOG_BYTES })).toString('utf8');
  }
  const v = verifyAuditLog(text, file ?? path, head !== undefined ? { head } : {});
  const code = exitCodeFor(v);
  ctx.out(ctx.opts.json ? auditJson(v, path) : renderAudit(v, { style: ctx.style, exitCode: code }));
  return code;
}
