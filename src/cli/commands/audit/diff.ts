/** `skillctl audit diff A B`: two records (a line or run id of the log, or a file), their fingerprints compared by the core. */
import { join, resolve } from 'node:path';
import { findProjectRoot, readInputFile } from '../../../core/fs/index.js';
import { DEFAULT_AUDIT_PATH, diffAuditRecords, pickRecord, toRecordRef, type PickedRecord } from '../../../core/run/index.js';
import type { Diagnostic } from '../../../core/diagnostics.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { auditDiffJson, renderAuditDiff } from '../../render/audit.js';

/** As for verify: logs grow, and this bounds what one comparison reads into memory. */
const MAX_LOG_BYTES = 256 * 1024 ** 2;

export async function diff(ctx: Context, a: string, b: string, log: string | undefined): Promise<number> {
  const logPath = log !== undefined ? resolve(ctx.io.cwd, log) : join((await findProjectRoot(ctx.io.cwd)) ?? ctx.io.cwd, DEFAULT_AUDIT_PATH);
  const texts = new Map<string, string>();
  const read = async (path: string): Promise<string> => {
    const cached = texts.get(path);
    if (cached !== undefined) return cached;
    const text = (await readInputFile(path, `the audit log ${path}`, { maxBytes: MAX_LOG_BYTES })).toString('utf8');
    texts.set(path, text);
    return text;
  };
  const pick = async (arg: string): Promise<PickedRecord | Diagnostic> => {
    const ref = toRecordRef(arg);
    if (ref !== undefined) return pickRecord(await read(logPath), logPath, ref);
    const path = resolve(ctx.io.cwd, arg);
    return pickRecord(await read(path), path, { last: true });
  };
  const d = diffAuditRecords(await pick(a), await pick(b));
  const code = exitCodeFor(d);
  ctx.out(ctx.opts.json ? auditDiffJson(d) : renderAuditDiff(d, { style: ctx.style }));
  return code;
}
