/**
 * `registry validate|publish oci://…`: each reference goes through the pull core (tag resolved,
 * manifest and media types checked, every blob's digest verified into the cache, signers counted
 * when asked, the layer read by the guarded archive reader and the skill validated) into a scratch
 * folder, and the folder it unpacks to is then checked and published exactly as a local bundle
 * directory is. Publish copies the files it keeps into the registry, so the scratch folder is
 * removed afterwards. A reference that cannot be pulled stops the command before anything is
 * checked or published.
 *
 * The scratch folder lies in skillctl's own directory in the temporary directory
 * (`skillctl-<uid>`), which every run protects, and publish compares the files it reads there with
 * the digests they had as the verified layer was unpacked: a program of a run whose policy lets it
 * write the temporary directory once rewrote them between the pull and the read, and the registry
 * published what no signer signed.
 */
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sha256Digest } from '../../../core/digest/index.js';
import { SkillctlError } from '../../../core/errors.js';
import { isOciArgument, parseOciReference, pullSkill } from '../../../core/oci/index.js';
import type { Context } from '../../context.js';
import { blobCache, transportOptions, trustedKeys } from '../../oci-env.js';
import type { PublishOptions } from './options.js';
import { beforeLayerTransfer } from '../../streaming-heap.js';
import { privateScratch } from '../../../core/run/scratch-root.js';

/** One argument of publish, ready to be read as a bundle directory. */
export interface PublishSource {
  /** The directory publish reads. */
  readonly dir: string;
  /** How it is named in findings and `--json` (`dir`): for oci://, the reference with the digest it resolved to. */
  readonly label: string;
  /** oci:// only: the manifest digest the reference resolved to. */
  readonly digest?: Sha256Digest;
  /** oci:// only: each file of `dir` and the digest it had as the verified layer was unpacked. */
  readonly verified?: ReadonlyMap<string, Sha256Digest>;
}

export interface PulledSources {
  readonly sources: readonly PublishSource[];
  /** Removes the scratch folder the artifacts were unpacked into. */
  readonly dispose: () => Promise<void>;
}

/**
 * Pulls every oci:// argument into one scratch folder; other arguments pass through as given.
 * `resolve` turns a directory argument into the path publish reads.
 */
export async function pullSources(ctx: Context, args: readonly string[], opts: PublishOptions, resolve: (dir: string) => string): Promise<PulledSources> {
  // Every reference is parsed first, so a malformed one is refused before any request is made.
  const refs = args.map((a) => (isOciArgument(a) ? parseOciReference(a) : undefined));
  const keys = await trustedKeys(ctx.io, opts);
  const transport = await transportOptions(ctx.io, opts);
  const cache = blobCache(ctx.io);
  const scratch = await privateScratch(tmpdir(), 'publish-oci-');
  const dispose = (): Promise<void> => rm(scratch, { recursive: true, force: true });
  try {
    const sources: PublishSource[] = [];
    for (const [i, arg] of args.entries()) {
      const ref = refs[i];
      if (ref === undefined) {
        sources.push({ dir: resolve(arg), label: arg });
        continue;
      }
      const pulled = await pullSkill({
        ref,
        transport,
        cache,
        root: scratch,
        outDir: join(scratch, String(i)),
        ...(opts.minSigners !== undefined ? { minSigners: opts.minSigners } : {}),
        ...(keys !== undefined ? { keys } : {}),
        beforeTransfer: beforeLayerTransfer,
      });
      if (!pulled.ok || pulled.path === undefined || pulled.reference === undefined || pulled.digest === undefined) {
        const first = pulled.diagnostics.find((d) => d.severity === 'error') ?? pulled.diagnostics[0];
        const more = pulled.diagnostics.length > 1 ? ` (and ${pulled.diagnostics.length - 1} more finding(s); \`skillctl pull ${arg}\` shows them all)` : '';
        throw new SkillctlError(first?.code ?? 'OCI_MANIFEST_INVALID', `${pulled.reference ?? arg}: ${first?.message ?? 'the artifact holds no skill'}${more}`, first?.hint !== undefined ? { hint: first.hint } : {});
      }
      ctx.note(ctx.style.dim(`pulled ${pulled.reference}${pulled.fromCache === true ? ' (from the cache)' : ''}`));
      const verified = new Map((pulled.files ?? []).map((f) => [f.path, f.digest]));
      sources.push({ dir: pulled.path, label: pulled.reference, digest: pulled.digest, verified });
    }
    return { sources, dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}
