/**
 * Builds a contract set from contract documents: each is parsed and checked on its own, then the
 * set is checked as a whole (no two contracts share a name or an `$id` with different content,
 * every `$ref` resolves to a usable contract). A bad document is reported and left out; it
 * never stops the others from loading.
 */
import { diag, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import { canonicalDigest, type Sha256Digest } from '../digest/index.js';
import { childPointer, type ParsedDocument } from '../manifest/index.js';
import { BUILTIN_CONTRACT_BASE, BUILTIN_SOURCES } from './builtin.js';
import { parseJsonDocument } from './json-document.js';
import { checkContractDocument } from './meta.js';
import { NAME_PATTERN, type Contract, type ContractSet, type ContractSource } from './model.js';
import { readContractDirs } from './read.js';
import { findRefCycles } from './ref-cycles.js';
import { absolute, indexDocument, newIndex, resolveRef, schemaNodes } from './refs.js';
import { pushAll } from '../findings.js';

type Obj = Record<string, unknown>;

interface Candidate {
  readonly src: ContractSource;
  readonly data: Obj;
  readonly name: string;
  readonly id: string;
  readonly digest: Sha256Digest;
  readonly doc?: ParsedDocument;
}

function located(d: Diagnostic, file: string, doc: ParsedDocument | undefined): Diagnostic {
  const key = d.code === 'CONTRACT_UNKNOWN_KEYWORD';
  const at = d.pointer !== undefined && d.line === undefined ? doc?.locate(d.pointer, { key }) : undefined;
  return { ...d, file, ...(at !== undefined ? { line: at.line, column: at.column } : {}) };
}

/** Parses and checks one document; returns the candidate or the findings that reject it. */
function examine(src: ContractSource): { candidate?: Candidate; diagnostics: Diagnostic[]; name?: string; id?: string } {
  if (src.problem !== undefined) return { diagnostics: [src.problem] };
  let data = src.data;
  let doc: ParsedDocument | undefined;
  if (src.bytes !== undefined) {
    const parsed = parseJsonDocument(src.bytes);
    if (parsed.problems.length > 0) {
      return { diagnostics: parsed.problems.map((p) => diag('CONTRACT_MALFORMED', `not a JSON document: ${p.message}`, { ...p, file: src.file })) };
    }
    doc = parsed.doc;
    data = parsed.data;
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { diagnostics: [diag('CONTRACT_MALFORMED', 'a contract is a JSON object (a JSON Schema)', { file: src.file, pointer: '' })] };
  }
  const obj = data as Obj;
  const name = typeof obj.contract === 'string' ? obj.contract : undefined;
  const found = checkContractDocument(obj).map((d) => located(d, src.file, doc));
  const id = typeof obj.$id === 'string' ? absolute(obj.$id, obj.$id)?.uri : undefined;
  if (found.length > 0 || name === undefined || id === undefined) {
    if (found.length === 0) found.push(diag('CONTRACT_MALFORMED', '$id is not an absolute URI', { file: src.file, pointer: '/$id' }));
    return { diagnostics: found, ...(name !== undefined ? { name } : {}), ...(id !== undefined ? { id } : {}) };
  }
  // A lone surrogate (a "\ud800" escape) has no canonical form: that contract is refused, the others still load.
  const digest = canonicalDigest(obj);
  if (digest.value === undefined) return { diagnostics: digest.diagnostics.map((d) => ({ ...d, file: src.file })), name, id };
  return { candidate: { src, data: obj, name, id, digest: digest.value, ...(doc !== undefined ? { doc } : {}) }, diagnostics: [] };
}

function toContract(c: Candidate, uses: readonly string[]): Contract {
  const [, family, version] = NAME_PATTERN.exec(c.name) as RegExpExecArray;
  const text = (k: string): Partial<Record<'title' | 'description', string>> =>
    typeof c.data[k] === 'string' ? { [k]: c.data[k] as string } : {};
  return {
    name: c.name,
    family: family as string,
    version: Number(version),
    id: c.id,
    ...text('title'),
    ...text('description'),
    origin: c.src.origin,
    file: c.src.file,
    schema: c.data,
    digest: c.digest,
    uses: [...uses].sort(),
  };
}

/**
 * Resolves every `$ref` of the admitted contracts; a contract with an unresolved one, or that
 * refers to an unusable contract, is unusable. Returns each contract's dependencies (and the
 * `$ref` through which it first reaches each) and the usable names.
 */
function checkReferences(
  byName: ReadonlyMap<string, Candidate>,
  rejectedIds: ReadonlyMap<string, string>,
  diagnostics: Diagnostic[],
): { deps: Map<string, Map<string, string>>; usable: Set<string> } {
  const index = newIndex();
  for (const c of byName.values()) indexDocument(index, c.data, c.id, c.name);
  // Each contract's dependencies, and the $ref through which it first reaches each.
  const deps = new Map<string, Map<string, string>>();
  const usable = new Set<string>();
  for (const c of byName.values()) {
    const mine = new Map<string, string>();
    let ok = true;
    for (const { node, pointer, base } of schemaNodes(c.data, c.id)) {
      if (typeof node.$ref !== 'string') continue;
      const at = childPointer(pointer, '$ref');
      const r = resolveRef(index, node.$ref, base);
      if (!r.ok) {
        const bad = r.uri !== undefined ? rejectedIds.get(r.uri) : undefined;
        diagnostics.push(
          located(
            diag('CONTRACT_REF_UNRESOLVED', `$ref ${JSON.stringify(node.$ref)}: ${r.reason}`, {
              pointer: at,
              ...(bad !== undefined ? { hint: `${bad} declares that $id but has findings` } : {}),
            }),
            c.src.file,
            c.doc,
          ),
        );
        ok = false;
      } else if (r.owner !== undefined && r.owner !== c.name && !mine.has(r.owner)) {
        mine.set(r.owner, at);
      }
    }
    deps.set(c.name, mine);
    if (ok) usable.add(c.name);
  }
  // A cycle of $refs that stays on one value never ends (ref-cycles.ts): refused before ajv sees it.
  for (const cycle of findRefCycles(index, [...byName.values()].map((c) => ({ doc: c.data, id: c.id, owner: c.name })))) {
    const c = byName.get(cycle.owner);
    if (c === undefined) continue;
    diagnostics.push(
      located(
        diag('CONTRACT_REF_CYCLE', `$ref cycle that never moves into the payload: ${cycle.path.join(' -> ')}`, {
          pointer: cycle.pointer,
          hint: 'a schema may refer back to itself only below properties, items or another keyword that moves into the payload',
        }),
        c.src.file,
        c.doc,
      ),
    );
    usable.delete(c.name);
  }
  // A contract that refers to an unusable one is unusable too; repeat until nothing changes.
  for (let changed = true; changed; ) {
    changed = false;
    for (const name of [...usable]) {
      for (const [dep, at] of deps.get(name) ?? []) {
        if (usable.has(dep)) continue;
        const c = byName.get(name) as Candidate;
        diagnostics.push(located(diag('CONTRACT_REF_UNRESOLVED', `refers to contract ${dep}, which is not usable`, { pointer: at }), c.src.file, c.doc));
        usable.delete(name);
        changed = true;
        break;
      }
    }
  }
  return { deps, usable };
}

/** The contract set of `sources`, in order: on a clash the first definition wins. Pure. */
export function buildContractSet(sources: readonly ContractSource[]): ContractSet {
  const diagnostics: Diagnostic[] = [];
  const rejected: { file: string; name?: string }[] = [];
  const byName = new Map<string, Candidate>();
  const byId = new Map<string, Candidate>();
  /** $ids declared by documents that were rejected, for hints on references to them. */
  const rejectedIds = new Map<string, string>();
  for (const src of sources) {
    const r = examine(src);
    pushAll(diagnostics, r.diagnostics);
    const c = r.candidate;
    if (c === undefined) {
      rejected.push({ file: src.file, ...(r.name !== undefined ? { name: r.name } : {}) });
      if (r.id !== undefined && !rejectedIds.has(r.id)) rejectedIds.set(r.id, src.file);
      continue;
    }
    const clash = byName.get(c.name) ?? byId.get(c.id);
    if (clash !== undefined) {
      if (clash.digest !== c.digest) {
        const what = clash.name === c.name ? `contract ${c.name}` : `$id ${c.id}`;
        const found = diag('CONTRACT_DUPLICATE', `${what} is already defined by ${clash.src.file}, differently`, {
          pointer: clash.name === c.name ? '/contract' : '/$id',
          hint: `C3: a changed contract is a new version; name it ${c.name.replace(/\d+$/, (v) => String(Number(v) + 1))} with its own $id`,
        });
        diagnostics.push(located(found, src.file, c.doc));
        rejected.push({ file: src.file, name: c.name });
      }
      continue; // an identical copy adds nothing
    }
    if (c.src.origin === 'user' && c.id.startsWith(BUILTIN_CONTRACT_BASE)) {
      // The manifest linter takes every $id there for a shipped contract; a user's would pass for one.
      const found = diag('CONTRACT_MALFORMED', `$id ${c.id} is in the namespace of the contracts skillctl ships`, {
        pointer: '/$id',
        hint: 'give your contract an $id under a URI you own',
      });
      diagnostics.push(located(found, src.file, c.doc));
      rejected.push({ file: src.file, name: c.name });
      continue;
    }
    byName.set(c.name, c);
    byId.set(c.id, c);
  }

  const { deps, usable } = checkReferences(byName, rejectedIds, diagnostics);
  const contracts: Contract[] = [];
  for (const c of byName.values()) {
    if (usable.has(c.name)) contracts.push(toContract(c, [...(deps.get(c.name)?.keys() ?? [])]));
    else rejected.push({ file: c.src.file, name: c.name });
  }
  contracts.sort((a, b) => (a.name < b.name ? -1 : 1));
  return { contracts, diagnostics: sortDiagnostics(diagnostics), rejected: rejected.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)) };
}

export interface LoadOptions {
  /** Directories of user contracts (--contracts), in order. */
  readonly dirs?: readonly string[];
  /** Resolves relative `dirs`. */
  readonly cwd: string;
}

/**
 * The built-in contracts plus those in `dirs`. Throws SkillctlError only when a directory cannot
 * be read; a bad contract file is a finding in `diagnostics`.
 */
export async function loadContractSet(opts: LoadOptions): Promise<ContractSet> {
  return buildContractSet([...BUILTIN_SOURCES, ...(await readContractDirs(opts.dirs ?? [], opts.cwd))]);
}

/**
 * The contract a user means by `query`: an exact versioned name (ctr.output.v1), an `$id`, or a
 * family name (ctr.output), which means its highest version.
 */
export function findContract(set: ContractSet, query: string): Contract | undefined {
  const exact = set.contracts.find((c) => c.name === query || c.id === query);
  if (exact !== undefined) return exact;
  const family = set.contracts.filter((c) => c.family === query);
  return family.sort((a, b) => b.version - a.version)[0];
}
