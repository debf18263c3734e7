import { isAbsolute, join } from 'node:path';
import { sortDiagnostics, type Diagnostic } from '../../core/diagnostics.js';
import { SkillctlError } from '../../core/errors.js';
import { collectTargets, pin, type PinChange, type Signing } from '../../core/pins/index.js';
import { readSecretKey } from '../../core/sign/index.js';
import type { Context } from '../context.js';
import { EXIT, exitCodeFor } from '../exit.js';
import { processFileLock, projectPaths } from '../project.js';
import { renderGrouped } from '../render/diagnostics.js';
import { renderJson } from '../render/json.js';
import type { PinOptions } from './pin.js';
import { pushAll } from '../../core/findings.js';

async function signing(ctx: Context, opts: PinOptions): Promise<{ signing: Signing[]; diagnostics: Diagnostic[] }> {
  if (opts.sign.length !== opts.signer.length) {
    throw new SkillctlError('USAGE', 'give each --sign <key> a --signer <id>', { hint: '--sign alice.key --signer alice --sign bob.key --signer bob' });
  }
  const out: Signing[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const [i, file] of opts.sign.entries()) {
    const r = await readSecretKey(isAbsolute(file) ? file : join(ctx.io.cwd, file), file);
    pushAll(diagnostics, r.diagnostics);
    if (r.key !== undefined) out.push({ signer: opts.signer[i] as string, key: r.key });
  }
  return { signing: out, diagnostics };
}

function describe(c: PinChange): string {
  return `${c.action.padEnd(9)} ${c.kind === 'pack' ? 'pack ' : ''}${c.id} ${c.version}  ${c.source}`;
}

export async function run(ctx: Context, paths: readonly string[], opts: PinOptions): Promise<number> {
  if (paths.length === 0 && opts.all !== true) throw new SkillctlError('USAGE', 'name what to pin, or pass --all', { hint: 'skillctl pin --all' });
  // `-` reads a lock from stdin for verify-pins; pin writes the lock, and stdin is no place to write it.
  if (opts.lock === '-') throw new SkillctlError('USAGE', 'pin writes the lock file: --lock - (standard input) cannot be written', { hint: 'name the lock file to update with --lock <file>' });
  const project = await projectPaths(ctx.io.cwd, opts.lock);
  const targets = await collectTargets(project.root, ctx.io.cwd, paths, opts.all === true);
  const keys = await signing(ctx, opts);
  const early = [...targets.diagnostics, ...keys.diagnostics];
  const outcome =
    early.some((d) => d.severity === 'error')
      ? { ok: false, lockWritten: false, signaturesWritten: [], changes: [], diagnostics: sortDiagnostics(early) }
      : await pin({
          root: project.root,
          lockPath: project.lockPath,
          lockFile: project.lockFile,
          targets: targets.targets,
          signing: keys.signing,
          replace: opts.replace === true,
          trustKeys: opts.trustKeys === true,
          ...(opts.minSigners !== undefined ? { minSigners: opts.minSigners } : {}),
          prune: opts.all === true,
          fileLock: processFileLock(),
        });
  const { diagnostics } = outcome;
  if (ctx.opts.json) {
    ctx.out(
      renderJson({
        ok: outcome.ok,
        lock: project.lockFile,
        lock_written: outcome.lockWritten,
        signatures_written: outcome.signaturesWritten,
        changes: outcome.changes,
        diagnostics,
      }).trimEnd(),
    );
  } else {
    const shown = ctx.opts.quiet ? diagnostics.filter((d) => d.severity === 'error') : diagnostics;
    if (shown.length > 0) ctx.out(renderGrouped(shown, { style: ctx.style }));
    for (const s of outcome.signaturesWritten) ctx.note(`signed ${s}/signatures.json`);
    if (outcome.lockWritten) {
      for (const c of outcome.changes) if (c.action !== 'unchanged' || !ctx.opts.quiet) ctx.out(describe(c));
      const changed = outcome.changes.filter((c) => c.action !== 'unchanged').length;
      ctx.out(`${ctx.style.green('✔')} ${project.lockFile}: ${changed} change${changed === 1 ? '' : 's'}, ${outcome.changes.length - changed} unchanged`);
    } else {
      ctx.out(`${ctx.style.red('✖')} ${project.lockFile} was not changed`);
    }
  }
  return outcome.ok ? EXIT.ok : exitCodeFor(diagnostics) || EXIT.findings;
}
