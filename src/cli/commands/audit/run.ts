/** `skillctl audit verify [FILE|-]`: the log streamed, its receipts checked by the core line by line. */
import { join, resolve } from 'node:path';
import { isSha256Digest } from '../../../core/digest/index.js';
import { SkillctlError } from '../../../core/errors.js';
import { readInputPieces } from '../../../core/fs/index.js';
import { projectRootOf } from '../../project.js';
import { DEFAULT_AUDIT_PATH, verifyAuditStream } from '../../../core/run/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { auditJson, renderAudit } from '../../render/audit.js';

export async function run(ctx: Context, file: string | undefined, head?: string): Promise<number> {
  if (head !== undefined && !isSha256Digest(head)) throw new SkillctlError('USAGE', `--head ${head}: a receipt_hash such as sha256:9f2c… (64 hex digits)`);
  // A log of any size is read: only a line is bounded (core/run/audit-lines.ts). A FIFO or a
  // device named as the log is refused before it is opened (core/fs).
  const path = file === '-' ? '-' : file !== undefined ? resolve(ctx.io.cwd, file) : join((await projectRootOf(ctx)) ?? ctx.io.cwd, DEFAULT_AUDIT_PATH);
  const pieces = path === '-' ? (ctx.io.stdin as AsyncIterable<Buffer | string>) : readInputPieces(path, `the audit log ${path}`);
  const v = await verifyAuditStream(pieces, file ?? path, head !== undefined ? { head } : {});
  const code = exitCodeFor(v);
  ctx.out(ctx.opts.json ? auditJson(v, path) : renderAudit(v, { style: ctx.style, exitCode: code }));
  return code;
}
