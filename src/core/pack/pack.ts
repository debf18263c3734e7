/**
 * `pack`: a bundle directory to a reproducible `<skill_id>-<skill_version>.tgz`. The manifest is
 * validated first and an invalid bundle is refused; the archive holds exactly the files the
 * content digest covers plus the manifest and signatures.json, in UTF-8 path order, with
 * normalised headers (src/core/bundle/tar.ts) and fixed gzip framing (./gzip.ts).
 */
import { join } from 'node:path';
import { archiveTrailer, contentPadding, DEFAULT_ARCHIVE_BOUNDS, DIGEST_EXCLUDED_ROOT_FILES, dirSource, fileHeader } from '../bundle/index.js';
import { diag, hasErrors, type Diagnostic } from '../diagnostics.js';
import { sha256, treeDigest, type Sha256Digest, type TreeFile } from '../digest/index.js';
import { writeFileAtomic } from '../fs/index.js';
import { validateBundle, type ManifestValidation } from '../manifest/index.js';
import { DeterministicGzip, type DeflateSink } from './gzip.js';

export interface PackResult {
  /** True when the archive was written. */
  readonly ok: boolean;
  /** The archive's path (`outDir/<skill_id>-<skill_version>.tgz`), when written. */
  readonly archive?: string;
  /** sha256 of the archive bytes. */
  readonly digest?: Sha256Digest;
  readonly size?: number;
  /** Every file in the archive, in archive order, with its digest. */
  readonly files: readonly TreeFile[];
  /** The manifest validation that gated the pack. */
  readonly validation: ManifestValidation;
  readonly diagnostics: readonly Diagnostic[];
}

/** The archive's bytes for a listed bundle: deterministic, no I/O but reading `read`. */
export async function buildArchive(
  files: readonly { path: string; size: number; mode: TreeFile['mode'] }[],
  read: (path: string) => Promise<Buffer>,
  deflate?: DeflateSink,
): Promise<{ bytes: Buffer; files: TreeFile[] }> {
  const gz = new DeterministicGzip(deflate);
  try {
    const out: TreeFile[] = [];
    let written = 0;
    // Read the next file while the current one is compressed.
    let next = files.length > 0 ? read((files[0] as TreeFile).path) : undefined;
    for (let i = 0; i < files.length; i++) {
      const f = files[i] as TreeFile;
      const data = await (next as Promise<Buffer>);
      next = i + 1 < files.length ? read((files[i + 1] as TreeFile).path) : undefined;
      const header = fileHeader(f.path, data.length, f.mode);
      gz.write(header);
      gz.write(data);
      const pad = contentPadding(data.length);
      gz.write(pad);
      written += header.length + data.length + pad.length;
      out.push({ path: f.path, size: data.length, mode: f.mode, digest: sha256(data) });
    }
    gz.write(archiveTrailer(written));
    return { bytes: await gz.end(), files: out };
  } catch (err) {
    gz.abort();
    throw err;
  }
}

export interface PackOptions {
  /** How to name the bundle in diagnostics (default: `dir`). */
  readonly label?: string;
  /** Where DEFLATE runs (default: this thread); the bytes are the same either way. */
  readonly deflate?: () => DeflateSink;
}

/** Validates the bundle in `dir` and writes its archive into `outDir` atomically. */
export async function packBundle(dir: string, outDir: string, opts: PackOptions = {}): Promise<PackResult> {
  const validation = await validateBundle(dir, opts.label ?? dir);
  if (!validation.valid || validation.skill_id === undefined || validation.skill_version === undefined) {
    return { ok: false, files: [], validation, diagnostics: validation.diagnostics };
  }
  const source = dirSource(dir);
  const listing = await source.list();
  const diagnostics: Diagnostic[] = [...validation.diagnostics];
  if (hasErrors(listing.diagnostics)) return { ok: false, files: [], validation, diagnostics: [...diagnostics, ...listing.diagnostics] };
  const total = listing.files.reduce((n, f) => n + f.size, 0);
  const bounds = DEFAULT_ARCHIVE_BOUNDS;
  if (listing.files.length > bounds.maxFiles || total > bounds.maxTotalBytes) {
    diagnostics.push(
      diag('ARCHIVE_TOO_LARGE', `the bundle has ${listing.files.length} files and ${total} bytes; archives are bounded to ${bounds.maxFiles} files and ${bounds.maxTotalBytes} bytes`, {
        file: opts.label ?? dir,
        hint: 'pin the bundle as a directory instead, or exclude files with .skillignore',
      }),
    );
    return { ok: false, files: [], validation, diagnostics };
  }
  const { bytes, files } = await buildArchive(listing.files, (p) => source.read(p), opts.deflate?.());
  // The files were read twice (validation, then packing): if they changed in between, the
  // archive would not be the bundle that was validated.
  const content = treeDigest(files.filter((f) => !DIGEST_EXCLUDED_ROOT_FILES.has(f.path)));
  if (content !== validation.digests.content.computed) {
    diagnostics.push(diag('CONTENT_DIGEST_MISMATCH', 'the bundle changed while it was being packed', { file: opts.label ?? dir, hint: 'pack it again' }));
    return { ok: false, files: [], validation, diagnostics };
  }
  const archive = join(outDir, `${validation.skill_id}-${validation.skill_version}.tgz`);
  await writeFileAtomic(archive, bytes);
  return { ok: true, archive, digest: sha256(bytes), size: bytes.length, files, validation, diagnostics };
}
