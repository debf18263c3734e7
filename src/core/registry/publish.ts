/**
 * Publishing capabilities: validate them against the registry they join (and each other), then
 * make them "latest" in one atomic step. Each bundle's files are copied into a fresh,
 * content-addressed directory (`capabilities/<id>/<digest hex>/`, created under a temporary
 * name and renamed into place), and only then is index.json replaced by an atomic rename. That
 * rename is the commit point: before it readers see the old registry, after it the new one. A
 * publish with any error, or one that stops at any step, leaves the index as it was, and so
 * every capability as it was.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { diag, hasErrors, type Diagnostic } from '../diagnostics.js';
import { errnoCode, SkillctlError } from '../errors.js';
import { withFileLock, type FileLockOptions } from '../fs/index.js';
import { sha256, type Sha256Digest } from '../digest/index.js';
import { matchBound } from './match.js';
import { bundleDir, CAPABILITIES_DIR, EMPTY_INDEX, readIndex, withEntry, writeIndex } from './index-file.js';
import type { LayeredEntry } from './layers.js';
import { bundlePath } from './bundle.js';
import { bundleDigest, publishedIntact } from './load.js';
import type { RegistrySource } from './locate.js';
import { BUNDLE_FILES, LATEST, type IndexEntry, type RegistryIndex } from './model.js';
import { checkCapability, readCapability, type CapabilityValidation, type ReadCapability, type ValidateCapabilityOptions } from './validate.js';
import { makeDirs } from '../fs/make-dirs.js';
import { pushAll } from '../findings.js';

export const LOCK_FILE = '.publish.lock';

export interface PublishedCapability {
  /** The bundle directory as given. */
  readonly label: string;
  readonly validation: CapabilityValidation;
  /** The index entry it has (or would have) once published. */
  readonly entry?: IndexEntry;
  /** True when the registry already held exactly these files as latest. */
  readonly unchanged?: boolean;
  /** The lower layer whose capability of the same id this one hides (`beneath`). */
  readonly shadows?: RegistrySource;
}

export interface PublishResult {
  /** True when every bundle is now latest in the registry; false when nothing was changed. */
  readonly published: boolean;
  readonly capabilities: readonly PublishedCapability[];
  readonly diagnostics: readonly Diagnostic[];
}

export interface PublishOptions extends Omit<ValidateCapabilityOptions, 'others' | 'label'> {
  /** How each directory is named in diagnostics (default: the path given). */
  readonly labels?: readonly string[];
  /** Create the registry directory when it does not exist (default false). */
  readonly create?: boolean;
  /** Check only; write nothing (`registry validate`). */
  readonly dryRun?: boolean;
  /**
   * The capabilities of the layers under this registry (the shipped ones under a project's):
   * their tool names count for collisions unless this registry hides them, and a bundle with the
   * id of one shadows it, which is reported (CAPABILITY_SHADOWED).
   */
  readonly beneath?: readonly LayeredEntry[];
  /**
   * For each directory, the digests its bundle files were verified to hold (an `oci://` source,
   * by the layer it was unpacked from), or undefined. A file read with other bytes, or one
   * without a digest here, is OCI_DIGEST_MISMATCH: the directory was changed after it was
   * verified, and nothing is published.
   */
  readonly verified?: readonly (ReadonlyMap<string, Sha256Digest> | undefined)[];
  /**
   * The write lock's process facts (the CLI's processFileLock): a publish waits for a live one
   * and takes over a dead or stale holder's lock. Without them a lock held is REGISTRY_BUSY at once.
   */
  readonly fileLock?: FileLockOptions;
}

/** OCI_DIGEST_MISMATCH for each file of `read` whose bytes are not the ones verified. */
function changedSinceVerified(read: ReadCapability, verified: ReadonlyMap<string, Sha256Digest>): Diagnostic[] {
  return BUNDLE_FILES.flatMap((name) => {
    const bytes = read.bytes[name];
    if (bytes === undefined || verified.get(name) === sha256(bytes)) return [];
    return [
      diag('OCI_DIGEST_MISMATCH', `${name} is not the file the verified layer unpacked to: it changed in the scratch folder before it was read`, {
        file: bundlePath(read.label, name),
        hint: 'publish it again; look for a process that writes in the temporary directory',
      }),
    ];
  });
}

function shadowNote(label: string, id: string, origin: RegistrySource, dryRun: boolean): Diagnostic {
  const what = `the capability of the same id in the ${origin} registry`;
  return diag('CAPABILITY_SHADOWED', dryRun ? `capability ${id} would shadow ${what}` : `capability ${id} shadows ${what}: list, match and load now see this one`, {
    file: bundlePath(label, 'capability.json'),
    pointer: '/capability_id',
    hint: 'publish it under another capability_id to offer both',
  });
}

function entryOf(read: ReadCapability): IndexEntry | undefined {
  const meta = read.parsed.meta;
  if (meta === undefined) return undefined;
  return {
    capability_id: meta.capability_id,
    name: meta.name,
    description: meta.description,
    intent_triggers: meta.intent_triggers,
    version: LATEST,
    digest: bundleDigest(read.bytes),
    tools: read.parsed.tools.map((t) => t.value.name),
    ui_schemas: read.parsed.uiSchemas.map((u) => u.value.schema_id),
  };
}

/** Validates every bundle against the index plus the other bundles of the same publish. */
async function validateAll(registry: string, index: RegistryIndex, dirs: readonly string[], opts: PublishOptions): Promise<{ items: PublishedCapability[]; diagnostics: Diagnostic[] }> {
  const labelOf = (i: number): string => opts.labels?.[i] ?? (dirs[i] as string);
  const reads = await Promise.all(dirs.map((d, i) => readCapability(d, labelOf(i))));
  const batch = reads.map(entryOf);
  const items: PublishedCapability[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const [i, read] of reads.entries()) {
    const verified = opts.verified?.[i];
    if (verified !== undefined) pushAll(diagnostics, changedSinceVerified(read, verified));
  }
  const firstOf = new Map<string, string>();
  // Lower layers count where neither this registry nor the batch hides them.
  const hidden = new Set([...index.capabilities, ...batch.filter((e): e is IndexEntry => e !== undefined)].map((e) => e.capability_id));
  const lower = (opts.beneath ?? []).filter((b) => !hidden.has(b.entry.capability_id)).map((b) => b.entry);
  for (const [i, read] of reads.entries()) {
    const mine = batch[i];
    const siblings = batch.filter((e, j): e is IndexEntry => j !== i && e !== undefined && e.capability_id !== mine?.capability_id);
    // The batch's bundles stand in for the published versions they replace.
    const others = [...index.capabilities.filter((e) => !siblings.some((o) => o.capability_id === e.capability_id)), ...siblings, ...lower];
    const v = await checkCapability(read, { ...opts, others });
    pushAll(diagnostics, v.diagnostics);
    if (mine !== undefined) {
      const prev = firstOf.get(mine.capability_id);
      if (prev !== undefined) {
        diagnostics.push(diag('CAPABILITY_ID_DUPLICATE', `capability ${mine.capability_id} is also published from ${prev}`, { file: bundlePath(read.label, 'capability.json'), pointer: '/capability_id' }));
      } else firstOf.set(mine.capability_id, read.label);
    }
    const previous = mine !== undefined ? index.capabilities.find((e) => e.capability_id === mine.capability_id) : undefined;
    const shadowed = mine !== undefined ? opts.beneath?.find((b) => b.entry.capability_id === mine.capability_id) : undefined;
    if (mine !== undefined && shadowed !== undefined) diagnostics.push(shadowNote(read.label, mine.capability_id, shadowed.origin, opts.dryRun === true));
    items.push({
      label: read.label,
      validation: v,
      ...(mine !== undefined ? { entry: mine } : {}),
      // The index's digest alone is not the files: a bundle edited or removed on disk is written again.
      ...(previous !== undefined && previous.digest === mine?.digest && (await publishedIntact(registry, previous)) ? { unchanged: true } : {}),
      ...(shadowed !== undefined ? { shadows: shadowed.origin } : {}),
    });
  }
  return { items, diagnostics };
}

/**
 * When no process facts are given (a library caller): a lock held is REGISTRY_BUSY at once, never
 * waited for, never taken over, as before publish took the write lock `pin` takes.
 */
function noWait(): FileLockOptions {
  // No clock in the core: a count of the lock's looks serves, so the second look is past the
  // timeout of 0, and a lock file never looks old (a file's time is far above the count).
  let looks = 0;
  return {
    now: () => looks++,
    pid: process.pid,
    hostname: '',
    isAlive: () => true,
    sleep: async () => {},
    timeoutMs: 0,
    staleMs: Number.POSITIVE_INFINITY,
  };
}

/**
 * Serialises publishers: two concurrent publishes would each rewrite the index from what they
 * read, and one capability would be lost. The lock is the write lock `pin` takes (fs/file-lock.ts):
 * a publish killed midway (Ctrl-C) left an empty lock file that made every later publish
 * REGISTRY_BUSY until someone removed it; a dead or stale holder's lock is now taken over.
 */
async function withLock<T>(registry: string, fileLock: FileLockOptions | undefined, fn: () => Promise<T>): Promise<T | { busy: Diagnostic }> {
  const lock = join(registry, LOCK_FILE);
  try {
    return await withFileLock(lock, fileLock ?? noWait(), fn);
  } catch (err) {
    if (!(err instanceof SkillctlError) || err.code !== 'LOCK_BUSY') throw err;
    return { busy: diag('REGISTRY_BUSY', `another publish holds ${lock}`, { file: lock, hint: `wait for it to finish (${err.hint ?? 'try again'})` }) };
  }
}

/**
 * Makes `capabilities/<id>/` inside the registry, refusing to go through anything but a real
 * directory: a symbolic link planted there would send the bundle's files outside the registry.
 */
async function realDirs(registry: string, id: string): Promise<Diagnostic | undefined> {
  let dir = registry;
  for (const part of [CAPABILITIES_DIR, id]) {
    dir = join(dir, part);
    let st;
    try {
      st = await lstat(dir);
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw err;
      await mkdir(dir);
      continue;
    }
    if (st.isSymbolicLink() || !st.isDirectory()) {
      return diag('REGISTRY_PATH_UNSAFE', `${dir} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}; nothing is published through it`, {
        file: dir,
        hint: 'remove it: a registry holds only the directories skillctl creates',
      });
    }
  }
  return undefined;
}

async function writeBundle(target: string, v: CapabilityValidation): Promise<void> {
  const parent = dirname(target);
  await makeDirs(parent);
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
    // A leftover of an interrupted publish of the same content is not referenced by the index.
    await rm(target, { recursive: true, force: true });
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
}

/** Validates the bundles in `dirs` and, when none has an error, publishes them all into `registry`. */
export async function publishCapabilities(registry: string, dirs: readonly string[], opts: PublishOptions = {}): Promise<PublishResult> {
  if (opts.create === true && opts.dryRun !== true) await makeDirs(registry);
  const body = async (): Promise<PublishResult> => {
    let read = await readIndex(registry);
    // A dry run needs no registry: without one, tool names are checked among the bundles given.
    if (!read.ok && opts.dryRun === true && read.diagnostics.every((d) => d.code === 'REGISTRY_NOT_FOUND')) read = { ok: true, index: EMPTY_INDEX };
    if (!read.ok) return { published: false, capabilities: [], diagnostics: read.diagnostics };
    const { items, diagnostics } = await validateAll(registry, read.index, dirs, opts);
    if (hasErrors(diagnostics) || items.some((it) => it.entry === undefined) || opts.dryRun === true) {
      return { published: false, capabilities: items, diagnostics };
    }
    // Every destination is checked before anything is written, so a refusal writes nothing.
    const changed = items.filter((it) => it.unchanged !== true);
    const unsafe: Diagnostic[] = [];
    for (const it of changed) {
      const d = await realDirs(registry, (it.entry as IndexEntry).capability_id);
      if (d !== undefined) unsafe.push(d);
    }
    if (unsafe.length > 0) return { published: false, capabilities: items, diagnostics: [...diagnostics, ...unsafe] };
    let index = read.index;
    const replaced: IndexEntry[] = [];
    for (const it of items) {
      const entry = it.entry as IndexEntry;
      if (it.unchanged === true) continue;
      await writeBundle(bundleDir(registry, entry), it.validation);
      const previous = index.capabilities.find((e) => e.capability_id === entry.capability_id);
      // A bundle written again under its own digest (restored) is the new one, not a leftover.
      if (previous !== undefined && previous.digest !== entry.digest) replaced.push(previous);
      index = withEntry(index, entry);
    }
    // Published all the same (list and load work), but said now rather than at the first match.
    const bound = matchBound(index.capabilities);
    if (bound !== undefined && matchBound(read.index.capabilities) === undefined) {
      diagnostics.push({ ...bound, severity: 'warning', message: `after this publish, ${bound.message}` });
    }
    if (index !== read.index) await writeIndex(registry, index);
    // The previous versions are unreachable now; removing them is tidying, not part of the commit.
    for (const old of replaced) await rm(bundleDir(registry, old), { recursive: true, force: true });
    return { published: true, capabilities: items, diagnostics };
  };
  if (opts.dryRun === true) return body();
  const pre = await readIndex(registry);
  if (!pre.ok) return { published: false, capabilities: [], diagnostics: pre.diagnostics };
  const outcome = await withLock(registry, opts.fileLock, body);
  return 'busy' in outcome ? { published: false, capabilities: [], diagnostics: [outcome.busy] } : outcome;
}
