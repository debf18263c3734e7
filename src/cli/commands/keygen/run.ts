/** `skillctl keygen --signer ID`: where the keys go (the project's defaults), one core call, the result. */
import { isAbsolute, join, relative } from 'node:path';
import { DEFAULT_KEYS_FILE } from '../../../core/pins/index.js';
import { keygen } from '../../../core/sign/index.js';
import type { Context } from '../../context.js';
import { processFileLock, projectRootOf } from '../../project.js';
import { exitCodeFor } from '../../exit.js';
import { renderGrouped } from '../../render/diagnostics.js';
import { keygenJson, renderKeygen, renderKeysChanged } from '../../render/keygen.js';
import type { KeygenOptions } from './options.js';

export async function run(ctx: Context, opts: KeygenOptions): Promise<number> {
  const cwd = ctx.io.cwd;
  const root = (await projectRootOf(ctx)) ?? cwd;
  const resolve = (p: string): string => (isAbsolute(p) ? p : join(cwd, p));
  const show = (p: string): string => (relative(cwd, p).startsWith('..') ? p : relative(cwd, p));
  const secretPath = opts.out !== undefined ? resolve(opts.out) : join(root, '.skillctl', 'keys', `${opts.signer}.key`);
  const keysPath = opts.keys !== undefined ? resolve(opts.keys) : join(root, 'pins', DEFAULT_KEYS_FILE);
  const files = { secret: show(secretPath), keys: show(keysPath) };
  const result = await keygen({ signer: opts.signer, secretPath, secretLabel: files.secret, ...(opts.out === undefined ? { defaultRoot: root } : {}), keysPath, keysLabel: files.keys, force: opts.force === true, fileLock: processFileLock() });
  if (ctx.opts.json) {
    ctx.out(keygenJson(result, files));
  } else {
    ctx.out(renderKeygen(result, files, ctx.style));
    // Warnings only when the key was written (SECRET_FILE_EXPOSED); a failure's findings are the result line.
    if (result.ok && result.diagnostics.length > 0) ctx.note(renderGrouped(result.diagnostics, { style: ctx.style }));
    if (result.ok) ctx.note(renderKeysChanged(result));
  }
  return exitCodeFor(result);
}
