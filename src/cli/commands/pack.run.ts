import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { errnoCode, SkillctlError } from '../../core/errors.js';
import { packBundle, type PackFormat } from '../../core/pack/index.js';
import type { Context } from '../context.js';
import { EXIT, exitCodeFor } from '../exit.js';
import { renderGrouped } from '../render/diagnostics.js';
import { renderJson } from '../render/json.js';
import type { PackOptions } from './pack.js';


/** The real path `path` has, or would have once made: its deepest existing ancestor resolved, the rest appended. */
async function realPathToBe(path: string): Promise<string> {
  const rest: string[] = [];
  for (let p = resolve(path); ; ) {
    try {
      return join(await realpath(p), ...rest.reverse());
    } catch {
      const up = dirname(p);
      if (up === p) return resolve(path);
      rest.push(basename(p));
      p = up;
    }
  }
}

export async function run(ctx: Context, dir: string, opts: PackOptions): Promise<number> {
  const abs = isAbsolute(dir) ? dir : join(ctx.io.cwd, dir);
  try {
    if (!(await stat(abs)).isDirectory()) throw new SkillctlError('BUNDLE_NOT_FOUND', `${dir} is not a directory`);
  } catch (err) {
    if (err instanceof SkillctlError) throw err;
    throw new SkillctlError('BUNDLE_NOT_FOUND', `${dir} ${errnoCode(err) === 'ENOENT' ? 'does not exist' : `cannot be read (${errnoCode(err) ?? String(err)})`}`);
  }
  const out = opts.out === undefined ? ctx.io.cwd : isAbsolute(opts.out) ? opts.out : join(ctx.io.cwd, opts.out);
  const outLabel = opts.out ?? 'the working directory';
  // An archive written into the bundle becomes one of its files: the next pack or pin sees a
  // changed bundle. Checked before any directory is made, on the real path it would have.
  const realBundle = await realpath(abs);
  const realOut = await realPathToBe(out);
  if (realOut === realBundle || realOut.startsWith(realBundle + sep)) {
    throw new SkillctlError('OUTPUT_UNWRITABLE', `${outLabel} is inside ${dir}, the folder being packed`, { hint: `write the archive elsewhere, e.g. --out ${join(dir, '..')}` });
  }
  const formats: PackFormat[] = opts.format === 'both' ? ['tgz', 'skill'] : [opts.format ?? 'tgz'];
  const result = await packBundle(abs, out, {
    label: dir,
    outLabel,
    formats,
    ...(opts.strict === true ? { profile: 'strict' as const } : {}),
  });
  const show = (p: string): string => (relative(ctx.io.cwd, p).startsWith('..') ? p : relative(ctx.io.cwd, p));
  const shown = result.archive !== undefined ? show(result.archive) : undefined;
  const skill = result.skillFile;
  if (ctx.opts.json) {
    ctx.out(
      renderJson({
        ok: result.ok,
        kind: result.kind ?? null,
        archive: shown ?? null,
        digest: result.digest ?? null,
        size: result.size ?? null,
        files: result.files,
        skill_file: skill !== undefined ? { path: show(skill.path), digest: skill.digest, size: skill.size, entries: skill.entries, excluded: skill.excluded } : null,
        diagnostics: result.diagnostics,
      }).trimEnd(),
    );
  } else {
    const visible = ctx.opts.quiet ? result.diagnostics.filter((d) => d.severity === 'error') : result.diagnostics;
    if (visible.length > 0) ctx.out(renderGrouped(visible, { style: ctx.style }));
    if (shown !== undefined) ctx.out(`${ctx.style.green('✔')} ${shown} ${result.digest} (${result.size} bytes, ${result.files.length} files)`);
    if (skill !== undefined) {
      const left = skill.excluded.length > 0 ? `, ${skill.excluded.length} left out` : '';
      ctx.out(`${ctx.style.green('✔')} ${show(skill.path)} ${skill.digest} (${skill.size} bytes, ${skill.entries.length} files${left})`);
    }
    if (!result.ok) ctx.out(`${ctx.style.red('✖')} ${dir} was not packed`);
  }
  return result.ok ? EXIT.ok : exitCodeFor(result.diagnostics) || EXIT.findings;
}
