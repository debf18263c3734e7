/**
 * Reads pack files: `loadPack` for one file's bytes, `loadPackDir` for an operator's --packs
 * directory. Files are parsed with the manifest parser's guards (size, depth, aliases, duplicate
 * and prototype keys), then checked by `checkPack`; a malformed pack is diagnostics, never a throw.
 */
import { lstat, readdir } from 'node:fs/promises';
import { describeRefusal, readBounded } from '../fs/read-bounded.js';
import { join } from 'node:path';
import { diag, hasErrors, sortDiagnostics, type Diagnostic, type Result } from '../diagnostics.js';
import { errnoCode, SkillctlError } from '../errors.js';
import { parseDocumentBytes, type DocumentFormat } from '../manifest/index.js';
import { BUILTIN_PROFILES } from './builtin.js';
import { checkPack } from './check.js';
import { PACK_MAX_FILE_BYTES, PACK_MAX_FILES, type Pack } from './model.js';
import { pushAll } from '../findings.js';

/** A pack and the file it was read from. */
export interface LoadedPack {
  readonly file: string;
  readonly pack: Pack;
}

export interface LoadPackOptions {
  /** How to name the file in diagnostics. */
  readonly file: string;
  /** The file name without its extension; the pack's profile must equal it. */
  readonly stem?: string;
}

/** Parses and checks one pack file. Diagnostics carry `file`, and line and column where known. */
export function loadPack(bytes: Uint8Array, format: DocumentFormat, opts: LoadPackOptions): Result<Pack> {
  if (bytes.length > PACK_MAX_FILE_BYTES) {
    return {
      ok: false,
      diagnostics: [diag('PACK_TOO_LARGE', `the file is ${bytes.length} bytes; the bound is ${PACK_MAX_FILE_BYTES}`, { file: opts.file })],
    };
  }
  const doc = parseDocumentBytes(bytes, format, 'pack');
  const checked = doc.data === undefined ? undefined : checkPack(doc.data, opts.stem !== undefined ? { stem: opts.stem } : {});
  const diagnostics = [...doc.diagnostics, ...(checked?.diagnostics ?? [])].map((d) => {
    const keyed = d.code === 'SCHEMA_UNKNOWN_FIELD' || d.code === 'MANIFEST_FORBIDDEN_KEY';
    const p = d.line === undefined && d.pointer !== undefined ? doc.locate(d.pointer, { key: keyed }) : undefined;
    return { ...d, file: opts.file, ...(p !== undefined ? { line: p.line, column: p.column } : {}) };
  });
  const ok = checked?.ok === true && !hasErrors(diagnostics);
  return ok ? { ok, value: checked.value as Pack, diagnostics } : { ok: false, diagnostics };
}

const PACK_FILE = /^([^.][^/]*)\.(ya?ml|json)$/;

export interface LoadPackDirOptions {
  /** How to name the directory in diagnostics (default: `dir`). */
  readonly label?: string;
  /** Profiles an operator pack may not take; default the built-in ones. */
  readonly reserved?: readonly string[];
}

/**
 * Loads every `<profile>.yaml`, `.yml` or `.json` at the top of `dir` (hidden files and other
 * names are ignored; symbolic links are refused, not followed). `ok` only when every file is a
 * valid pack, no two declare the same profile, none takes a reserved (built-in) name, and there
 * are at most PACK_MAX_FILES of them (more: PACK_TOO_LARGE, none read).
 * Throws SkillctlError when `dir` itself cannot be read.
 */
export async function loadPackDir(dir: string, opts: LoadPackDirOptions = {}): Promise<Result<readonly LoadedPack[]>> {
  const label = opts.label ?? dir;
  const reserved = new Set(opts.reserved ?? BUILTIN_PROFILES);
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT') throw new SkillctlError('INPUT_NOT_FOUND', `packs directory ${label} does not exist`, { cause: err });
    throw new SkillctlError('INPUT_UNREADABLE', `packs directory ${label} cannot be read (${code ?? String(err)})`, { cause: err });
  }
  // Counted by name, before any is opened: a flood is refused at the cost of its listing.
  const candidates = names.filter((n) => PACK_FILE.test(n)).length;
  if (candidates > PACK_MAX_FILES) {
    const message = `${label} holds ${candidates} pack files; the bound is ${PACK_MAX_FILES}`;
    return { ok: false, diagnostics: [diag('PACK_TOO_LARGE', message, { file: label, hint: 'keep the packs this host serves in a directory of their own' })] };
  }
  const diagnostics: Diagnostic[] = [];
  const loaded: LoadedPack[] = [];
  const byProfile = new Map<string, string>();
  for (const name of names) {
    const m = PACK_FILE.exec(name);
    if (m === null) continue;
    const file = join(label, name);
    const stem = m[1] as string;
    let bytes: Buffer;
    try {
      const st = await lstat(join(dir, name));
      if (st.isDirectory()) continue;
      if (!st.isFile()) {
        const what = st.isSymbolicLink() ? 'a symbolic link (links are not followed)' : 'not a regular file';
        diagnostics.push(diag('INPUT_UNREADABLE', `${name} is ${what}`, { file, hint: 'put the pack file itself in the directory' }));
        continue;
      }
      if (st.size > PACK_MAX_FILE_BYTES) {
        diagnostics.push(diag('PACK_TOO_LARGE', `the file is ${st.size} bytes; the bound is ${PACK_MAX_FILE_BYTES}`, { file }));
        continue;
      }
      // lstat saw a regular file; it is read refusing a link or FIFO swapped in since (read-bounded.ts).
      const r = await readBounded(join(dir, name), { maxBytes: PACK_MAX_FILE_BYTES, followLinks: false });
      if (!r.ok) {
        diagnostics.push(diag(r.reason === 'too-large' ? 'PACK_TOO_LARGE' : 'INPUT_UNREADABLE', describeRefusal(r, name), { file }));
        continue;
      }
      bytes = r.bytes;
    } catch (err) {
      diagnostics.push(diag('INPUT_UNREADABLE', `cannot read ${name} (${errnoCode(err) ?? String(err)})`, { file }));
      continue;
    }
    const r = loadPack(bytes, m[2] === 'json' ? 'json' : 'yaml', { file, stem });
    pushAll(diagnostics, r.diagnostics);
    if (r.value === undefined) continue;
    const profile = r.value.profile;
    if (reserved.has(profile)) {
      diagnostics.push(
        diag('PACK_PROFILE_RESERVED', `profile ${profile} is built in; an operator pack cannot replace it`, {
          file,
          pointer: '/profile',
          hint: `choose another name, such as ${profile}-local (and rename the file to match)`,
        }),
      );
      continue;
    }
    const first = byProfile.get(profile);
    if (first !== undefined) {
      diagnostics.push(diag('PACK_PROFILE_DUPLICATE', `profile ${profile} is already declared by ${first}`, { file, pointer: '/profile', hint: 'keep one of the two files' }));
      continue;
    }
    byProfile.set(profile, file);
    loaded.push({ file, pack: r.value });
  }
  if (names.every((n) => !PACK_FILE.test(n))) {
    diagnostics.push(diag('NO_INPUT', `no pack files (<profile>.yaml, .yml or .json) in ${label}`, { file: label }));
  }
  const sorted = sortDiagnostics(diagnostics);
  return hasErrors(sorted) ? { ok: false, diagnostics: sorted } : { ok: true, value: loaded, diagnostics: sorted };
}
