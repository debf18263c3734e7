/**
 * `validate --contract NAME FILE...`: which contract a name means, reading payload files within
 * their bound, and checking every payload against one contract. A payload that cannot be read is
 * not checked (`valid: null`), and is not counted as a violation.
 */
import { isAbsolute, join } from 'node:path';
import { sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import { pushAll } from '../findings.js';
import { readBounded, refusalDiagnostic } from '../fs/read-bounded.js';
import { MANIFEST_MAX_BYTES } from '../manifest/index.js';
import { compileContract, type PayloadContext } from './compile.js';
import { findContract } from './load.js';
import type { Contract, ContractSet } from './model.js';
import { checkPayloadBytes } from './payload.js';

/** Payloads are bounded like manifests: enough for any real exchange, refused before parsing beyond. */
export const PAYLOAD_MAX_BYTES = MANIFEST_MAX_BYTES;

/** A usable contract; the findings about the files that declare the name but are unusable; or no contract of that name. */
export type ContractChoice = { readonly contract: Contract } | { readonly diagnostics: readonly Diagnostic[] } | { readonly unknown: true };

/** The contract `query` names (see findContract), or why there is none. */
export function chooseContract(set: ContractSet, query: string): ContractChoice {
  const contract = findContract(set, query);
  if (contract !== undefined) return { contract };
  const files = new Set(set.rejected.filter((r) => r.name === query || r.name?.replace(/\.v\d+$/, '') === query).map((r) => r.file));
  if (files.size > 0) return { diagnostics: set.diagnostics.filter((d) => d.file !== undefined && files.has(d.file)) };
  return { unknown: true };
}

/**
 * The bytes of a payload file (relative to `cwd`), or the finding that stops it being checked. A
 * FIFO or a device is refused before it is opened, a file over the bound unread (fs/read-bounded.ts).
 */
export async function readPayloadFile(cwd: string, file: string): Promise<Uint8Array | Diagnostic> {
  const r = await readBounded(isAbsolute(file) ? file : join(cwd, file), { maxBytes: PAYLOAD_MAX_BYTES });
  return r.ok ? r.bytes : refusalDiagnostic(r, file, 'PAYLOAD_NOT_JSON');
}

export interface PayloadResult {
  readonly file: string | null;
  /** The contract's name as asked for, or as found. */
  readonly contract: string;
  /** null: the payload could not be read, so it was not checked. */
  readonly valid: boolean | null;
  readonly diagnostics: readonly Diagnostic[];
}

export interface PayloadsCheck {
  /** The contract's name: as found, or as asked for when there is none. */
  readonly label: string;
  /** True when the contract was usable and the payloads were checked against it. */
  readonly checked: boolean;
  readonly payloads: readonly PayloadResult[];
  /** Every finding, sorted. */
  readonly diagnostics: readonly Diagnostic[];
}

export interface PayloadsRequest {
  readonly set: ContractSet;
  /** What `query` chose (chooseContract); a name that chose nothing is the caller's to report. */
  readonly choice: Exclude<ContractChoice, { unknown: true }>;
  readonly query: string;
  readonly files: readonly string[];
  /** Reads one payload: a file, or stdin for `-` (the caller's). */
  readonly read: (file: string) => Promise<Uint8Array | Diagnostic>;
  readonly context?: PayloadContext;
}

/** Checks every payload against the chosen contract, in order; reads none when the contract is unusable. */
export async function checkPayloads(req: PayloadsRequest): Promise<PayloadsCheck> {
  const { choice, query } = req;
  if ('diagnostics' in choice) {
    const payload = { file: choice.diagnostics[0]?.file ?? null, contract: query, valid: false, diagnostics: choice.diagnostics };
    return { label: query, checked: false, payloads: [payload], diagnostics: sortDiagnostics(choice.diagnostics) };
  }
  const { contract } = choice;
  const validator = await compileContract(req.set, contract);
  if ('error' in validator) {
    const all = [{ ...validator.error, file: contract.file }];
    return { label: contract.name, checked: false, payloads: [{ file: contract.file, contract: contract.name, valid: false, diagnostics: all }], diagnostics: all };
  }
  const payloads: PayloadResult[] = [];
  const all: Diagnostic[] = [];
  for (const file of req.files) {
    const bytes = await req.read(file);
    const r = bytes instanceof Uint8Array ? checkPayloadBytes(bytes, validator, { file, ...req.context }) : { file, valid: null, diagnostics: [bytes] };
    payloads.push({ file, contract: contract.name, valid: r.valid, diagnostics: r.diagnostics });
    pushAll(all, r.diagnostics);
  }
  return { label: contract.name, checked: true, payloads, diagnostics: sortDiagnostics(all) };
}
