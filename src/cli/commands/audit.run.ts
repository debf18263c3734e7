import { join, resolve } from 'node:path';
import { SkillctlError } from '../../core/errors.js';
import { findProjectRoot, readInputFile } from '../../core/fs/index.js';
import { DEFAULT_AUDIT_PATH, verifyAuditLog } from '../../core/run/index.js';
import type { Context } from '../context.js';
import { exitCodeFor } from '../exit.js';
import { readStdin } from '../io.js';
import { plural, renderGrouped } from '../render/diagnostics.js';
import { renderJson } from '../render/json.js';

/** Audit logs grow; this bounds what one verification reads into memory. */
const MAX_LOG_BYTES = 256 * 1024 ** 2;

export async function run(ctx: Context, file: string | undefined): Promise<number> {
  let path: string;
  let text: string;
  if (file === '-') {
    path = '-';
    const bytes = await readStdin(ctx.io, MAX_LOG_BYTES);
    if (bytes === undefined) throw new SkillctlError('INPUT_UNREADABLE', `the audit log on stdin exceeds ${MAX_LOG_BYTES} bytes`);
    text = bytes.toString('utf8');
  } else {
    path = file !== undefined ? resolve(ctx.io.cwd, file) : join((await findProjectRoot(ctx.io.cwd)) ?? ctx.io.cwd, DEFAULT_AUDIT_PATH);
    text = (await readInputFile(path, `the audit log ${path}`, { maxBytes: MAX_LOG_BYTES })).toString('utf8');
  }
  const v = verifyAuditLog(text, file ?? path);
  const code = exitCodeFor(v.diagnostics);
  if (ctx.opts.json) {
    ctx.out(renderJson({ file: path, records: v.records, valid: v.bad_lines.length === 0, bad_lines: v.bad_lines, diagnostics: v.diagnostics }).trimEnd());
  } else {
    if (v.diagnostics.length > 0) ctx.out(renderGrouped(v.diagnostics, { style: ctx.style }));
    const summary = `${plural(v.records, 'record')} checked: ${v.bad_lines.length === 0 ? 'all intact' : `${plural(v.bad_lines.length, 'bad line')}`}`;
    ctx.out((code === 0 ? ctx.style.green('✔ ') : ctx.style.red('✖ ')) + summary);
  }
  return code;
}
