/** `skillctl audit diff A B`: two records (a line or run id of the log, or a file), their fingerprints compared by the core. */
import { join, resolve } from 'node:path';
import { readInputPieces } from '../../../core/fs/index.js';
import { projectRootOf } from '../../project.js';
import { DEFAULT_AUDIT_PATH, diffAuditRecords, pickRecordStream, toRecordRef, type PickedRecord } from '../../../core/run/index.js';
import type { Diagnostic } from '../../../core/diagnostics.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { auditDiffJson, renderAuditDiff } from '../../render/audit.js';

export async function diff(ctx: Context, a: string, b: string, log: string | undefined): Promise<number> {
  const logPath = log !== undefined ? resolve(ctx.io.cwd, log) : join((await projectRootOf(ctx)) ?? ctx.io.cwd, DEFAULT_AUDIT_PATH);
  // As for verify, a log is streamed: each side reads it again rather than hold it.
  const pick = async (arg: string): Promise<PickedRecord | Diagnostic> => {
    const ref = toRecordRef(arg);
    const path = ref !== undefined ? logPath : resolve(ctx.io.cwd, arg);
    return pickRecordStream(readInputPieces(path, `the audit log ${path}`), path, ref ?? { last: true });
  };
  const d = diffAuditRecords(await pick(a), await pick(b));
  const code = exitCodeFor(d);
  ctx.out(ctx.opts.json ? auditDiffJson(d) : renderAuditDiff(d, { style: ctx.style }));
  return code;
}
