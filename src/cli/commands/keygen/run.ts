import { isAbsolute, join, relative } from 'node:path';
import { DEFAULT_KEYS_FILE, findProjectRoot } from '../../../core/pins/index.js';
import { keygen } from '../../../core/sign/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { renderGrouped } from '../../render/diagnostics.js';
import { renderJson } from '../../render/json.js';
import type { KeygenOptions } from './options.js';

export async function run(ctx: Context, opts: KeygenOptions): Promise<number> {
  const cwd = ctx.io.cwd;
  const root = (await findProjectRoot(cwd)) ?? cwd;
  const resolve = (p: string): string => (isAbsolute(p) ? p : join(cwd, p));
  const show = (p: string): string => (relative(cwd, p).startsWith('..') ? p : relative(cwd, p));
  const secretPath = opts.out !== undefined ? resolve(opts.out) : join(root, '.skillctl', 'keys', `${opts.signer}.key`);
  const keysPath = opts.keys !== undefined ? resolve(opts.keys) : join(root, 'pins', DEFAULT_KEYS_FILE);
  const result = await keygen({
    signer: opts.signer,
    secretPath,
    secretLabel: show(secretPath),
    keysPath,
    keysLabel: show(keysPath),
    force: opts.force === true,
  });
  if (ctx.opts.json) {
    ctx.out(
      renderJson({
        ok: result.ok,
        signer: result.signer,
        public_key: result.publicKey ?? null,
        secret_key_file: result.ok ? show(secretPath) : null,
        keys_file: show(keysPath),
        keys_digest: result.keysDigest ?? null,
        diagnostics: result.diagnostics,
      }).trimEnd(),
    );
  } else if (result.ok) {
    ctx.out(`${ctx.style.green('✔')} ${result.signer}: secret key ${show(secretPath)} (mode 0600), public key ${result.publicKey} in ${show(keysPath)}`);
    ctx.note(`the public-keys file now hashes to ${result.keysDigest}; a lock that already pins public keys accepts the change with skillctl pin --trust-keys`);
  } else {
    ctx.out(renderGrouped(result.diagnostics, { style: ctx.style }));
  }
  return exitCodeFor(result);
}
