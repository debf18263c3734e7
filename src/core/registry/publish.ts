/**
 * Publishing a capability: validate it against the registry it joins, then make it "latest" in
 * one atomic step. The bundle's files are copied into a fresh, content-addressed directory
 * (`capabilities/<id>/<digest hex>/`, created under a temporary name and renamed into place),
 * and only then is index.json replaced by an atomic rename. That rename is the commit point:
 * before it readers see the old capability, after it the new one, and a publish that fails or
 * stops at any step leaves the index, and so the registry, as it was.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';
import { errnoCode } from '../errors.js';
import { bundleDir, readIndex, withEntry, writeIndex } from './index-file.js';
import { bundleDigest } from './load.js';
import { BUNDLE_FILES, LATEST, type IndexEntry } from './model.js';
import { validateCapability, type CapabilityValidation, type ValidateCapabilityOptions } from './validate.js';

export const LOCK_FILE = '.publish.lock';

export interface PublishResult {
  /** True when the capability is now the registry's latest. */
  readonly published: boolean;
  /** The index entry written, when published. */
  readonly entry?: IndexEntry;
  /** True when the registry already held exactly these files as latest. */
  readonly unchanged?: boolean;
  readonly validation?: CapabilityValidation;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Serialises publishers: two concurrent publishes would each rewrite the index from what they
 * read, and one capability would be lost. The lock is a file created exclusively.
 */
async function withLock<T>(registry: string, fn: () => Promise<T>): Promise<T | { busy: Diagnostic }> {
  const lock = join(registry, LOCK_FILE);
  let fh;
  try {
    fh = await open(lock, 'wx');
  } catch (err) {
    if (errnoCode(err) !== 'EEXIST') throw err;
    return {
      busy: diag('REGISTRY_BUSY', `another publish holds ${lock}`, { file: lock, hint: 'wait for it to finish; if no publish is running, delete the lock file' }),
    };
  }
  try {
    await fh.close();
    return await fn();
  } finally {
    await rm(lock, { force: true });
  }
}

async function writeBundle(target: string, v: CapabilityValidation): Promise<void> {
  const parent = dirname(target);
  await mkdir(parent, { recursive: true });
  const tmp = join(parent, `.tmp-${randomBytes(6).toString('hex')}`);
  await mkdir(tmp);
  try {
    for (const name of BUNDLE_FILES) {
      const fh = await open(join(tmp, name), 'wx', 0o644);
      try {
        await fh.writeFile(v.bytes[name] as Uint8Array);
        await fh.sync();
      } finally {
        await fh.close();
      }
    }
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
}

export interface PublishOptions extends Omit<ValidateCapabilityOptions, 'others'> {
  /** Create the registry directory when it does not exist (default false). */
  readonly create?: boolean;
}

/** Validates the bundle in `dir` and, when it is valid, publishes it into `registry`. */
export async function publishCapability(registry: string, dir: string, opts: PublishOptions = {}): Promise<PublishResult> {
  if (opts.create === true) await mkdir(registry, { recursive: true });
  const first = await readIndex(registry);
  if (!first.ok) return { published: false, diagnostics: first.diagnostics };
  const outcome = await withLock(registry, async (): Promise<PublishResult> => {
    const read = await readIndex(registry);
    if (!read.ok) return { published: false, diagnostics: read.diagnostics };
    const v = await validateCapability(dir, { ...opts, others: read.index.capabilities });
    if (!v.valid || v.parsed.meta === undefined) return { published: false, validation: v, diagnostics: v.diagnostics };
    const meta = v.parsed.meta;
    const entry: IndexEntry = {
      capability_id: meta.capability_id,
      name: meta.name,
      description: meta.description,
      intent_triggers: meta.intent_triggers,
      version: LATEST,
      digest: bundleDigest(v.bytes),
      tools: v.parsed.tools.map((t) => t.value.name),
      ui_schemas: v.parsed.uiSchemas.map((u) => u.value.schema_id),
    };
    const previous = read.index.capabilities.find((e) => e.capability_id === entry.capability_id);
    if (previous?.digest === entry.digest) {
      return { published: true, unchanged: true, entry, validation: v, diagnostics: v.diagnostics };
    }
    const target = bundleDir(registry, entry);
    await rm(target, { recursive: true, force: true });
    await writeBundle(target, v);
    await writeIndex(registry, withEntry(read.index, entry));
    // The previous version is unreachable now; removing it is tidying, not part of the commit.
    if (previous !== undefined) await rm(bundleDir(registry, previous), { recursive: true, force: true });
    return { published: true, entry, validation: v, diagnostics: v.diagnostics };
  });
  return 'busy' in outcome ? { published: false, diagnostics: [outcome.busy] } : outcome;
}
