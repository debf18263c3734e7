import { mkdir, stat } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { errnoCode, SkillctlError } from '../../core/errors.js';
import { packBundle } from '../../core/pack/index.js';
import type { Context } from '../context.js';
import { EXIT, exitCodeFor } from '../exit.js';
import { renderGrouped } from '../render/diagnostics.js';
import { renderJson } from '../render/json.js';
import type { PackOptions } from './pack.js';
import { workerDeflate } from '../pack-deflate.js';

/** The entry the DEFLATE worker thread calls (see ../pack-deflate.ts). */
export { deflateWorker } from '../pack-deflate.js';

export async function run(ctx: Context, dir: string, opts: PackOptions): Promise<number> {
  const abs = isAbsolute(dir) ? dir : join(ctx.io.cwd, dir);
  try {
    if (!(await stat(abs)).isDirectory()) throw new SkillctlError('BUNDLE_NOT_FOUND', `${dir} is not a directory`);
  } catch (err) {
    if (err instanceof SkillctlError) throw err;
    throw new SkillctlError('BUNDLE_NOT_FOUND', `${dir} ${errnoCode(err) === 'ENOENT' ? 'does not exist' : `cannot be read (${errnoCode(err) ?? String(err)})`}`);
  }
  const out = opts.out === undefined ? ctx.io.cwd : isAbsolute(opts.out) ? opts.out : join(ctx.io.cwd, opts.out);
  try {
    await mkdir(out, { recursive: true });
  } catch (err) {
    throw new SkillctlError('INPUT_UNREADABLE', `cannot create ${opts.out ?? '.'}: ${errnoCode(err) ?? String(err)}`);
  }
  const deflate = workerDeflate();
  const result = await packBundle(abs, out, { label: dir, ...(deflate !== undefined ? { deflate } : {}) });
  const shown = result.archive !== undefined ? (relative(ctx.io.cwd, result.archive).startsWith('..') ? result.archive : relative(ctx.io.cwd, result.archive)) : undefined;
  if (ctx.opts.json) {
    ctx.out(
      renderJson({
        ok: result.ok,
        archive: shown ?? null,
        digest: result.digest ?? null,
        size: result.size ?? null,
        files: result.files,
        diagnostics: result.diagnostics,
      }).trimEnd(),
    );
  } else {
    const visible = ctx.opts.quiet ? result.diagnostics.filter((d) => d.severity === 'error') : result.diagnostics;
    if (visible.length > 0) ctx.out(renderGrouped(visible, { style: ctx.style }));
    if (result.ok) ctx.out(`${ctx.style.green('✔')} ${shown} ${result.digest} (${result.size} bytes, ${result.files.length} files)`);
    else ctx.out(`${ctx.style.red('✖')} ${dir} was not packed`);
  }
  return result.ok ? EXIT.ok : exitCodeFor(result.diagnostics) || EXIT.findings;
}
