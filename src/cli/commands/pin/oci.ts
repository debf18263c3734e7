/**
 * `skillctl pin oci://…`: each reference is pulled (as `pull` does: verified, into its default
 * folder), then every folder is pinned as usual, each pulled one with the origin
 * `{oci: {reference, digest}}` that `verify-pins --remote` checks.
 */
import { relative } from 'node:path';
import { formatOciReference, parseOciReference, pullSkill } from '../../../core/oci/index.js';
import { toSource, type PulledOrigin } from '../../../core/pins/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { blobCache, transportOptions } from '../../oci-env.js';
import { projectPaths } from '../../project.js';
import { renderPull } from '../../render/oci.js';
import { pinJson } from '../../render/pin.js';
import { beforeLayerTransfer } from '../../streaming-heap.js';
import type { PinOptions } from './options.js';
import { visible } from '../../../core/visible.js';

/** The paths with each oci:// reference pulled and replaced by its folder, and the origins to record; or the exit status of a failed pull. */
export async function pullReferences(ctx: Context, paths: readonly string[], opts: PinOptions): Promise<{ paths: string[]; origins: Map<string, PulledOrigin> } | number> {
  const cwd = ctx.io.cwd;
  const project = await projectPaths(cwd, opts.lock);
  const transport = await transportOptions(ctx.io, opts.timeout !== undefined ? { timeout: opts.timeout } : {});
  const local: string[] = [];
  const origins = new Map<string, PulledOrigin>();
  for (const p of paths) {
    if (!p.startsWith('oci://')) {
      local.push(p);
      continue;
    }
    const ref = parseOciReference(p);
    const pulled = await pullSkill({ ref, transport, cache: blobCache(ctx.io), root: project.root, beforeTransfer: beforeLayerTransfer });
    if (!pulled.ok || pulled.path === undefined || pulled.digest === undefined) {
      const show = (x: string): string => (relative(cwd, x).startsWith('..') ? x : relative(cwd, x));
      // --json: pin's own document (schemas/cli/pin.schema.json), nothing pinned, with the pull's findings.
      const unpinned = { ok: false, lockWritten: false, signaturesWritten: [], changes: [], diagnostics: pulled.diagnostics };
      ctx.out(ctx.opts.json ? pinJson(unpinned, project.lockFile) : renderPull(pulled, { style: ctx.style, quiet: ctx.opts.quiet, label: p, show }));
      return exitCodeFor(pulled);
    }
    if (!ctx.opts.json) ctx.note(visible(`pulled ${pulled.reference ?? p} into ${relative(cwd, pulled.path)}`));
    local.push(relative(cwd, pulled.path) || '.');
    const source = toSource(project.root, pulled.path);
    const { digest: _given, ...named } = ref;
    void _given;
        // What the artifact holds, by its config: the pin must be of exactly that (core/pins/origins.ts).
    const holds = pulled.config !== undefined ? { holds: { manifest_digest: pulled.config.manifest_digest, content_digest: pulled.config.content_digest } } : {};
    if (source !== undefined) origins.set(source, { origin: { oci: { reference: formatOciReference(named), digest: pulled.digest } }, ...holds });
  }
  return { paths: local, origins };
}
