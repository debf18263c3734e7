/**
 * A module checked and rewritten before anything of it runs: its imports are the host's own calls
 * with the types the host gives them (anything else is refused, naming the module and the call);
 * its memory is capped at the grant (a minimum above it is refused, its maximum lowered to it, so
 * `memory.grow` past the grant returns -1 in the engine itself); its tables are capped likewise;
 * its entry export has one of the two accepted signatures; and, with a budget, every function
 * body pays fuel (meter.ts).
 */
import { I32, I64, limitsBytes, nameBytes, readLimits, Reader, s64Bytes, sections, skipConstExpr, skipRefType, skipValType, u32Bytes, WasmFormatError, type FuncType, type Section } from './binary.js';
import { pushAll } from '../../findings.js';
import { assemble, concatBytes, type Payload } from './assemble.js';
import { ByteLimitError } from './byte-writer.js';
import { FuncTypes, sameType, typeText } from './func-types.js';
import { meterCode } from './meter.js';
import { HOST_MODULE, HOSTCALL_TYPES, PROVENACT_ENTRY } from './provenact-abi.js';
import { WASI_ENTRY, WASI_MODULE, WASI_TYPES } from './wasi-abi.js';

export const PAGE_BYTES = 65536;
/** The largest module file (provenact's bound on a wasm file). */
export const MAX_MODULE_BYTES = 16 * 1024 * 1024;
/**
 * The largest metered code section. Metering adds 15 to 20 bytes per straight-line stretch:
 * ordinary compiled code grows by about four fifths, code made of nothing but block ends about
 * sixfold. Four times the module bound leaves room for the first and stops the second early: the
 * rewrite runs on the run's thread before its deadline, and the engine then compiles the result.
 */
export const MAX_METERED_CODE_BYTES = 4 * MAX_MODULE_BYTES;
/** The most elements a table may have (provenact's limit): a declared maximum is lowered to it. */
export const MAX_TABLE_ELEMENTS = 10_000;
/**
 * The most tables a module may declare (provenact's limit). Tables are allocated whole at
 * instantiation, which neither fuel nor the deadline can interrupt: 100,000 tables of 10,000
 * elements kept a thread busy for minutes past its deadline. With MAX_TABLE_ELEMENTS each, a
 * module holds at most 80,000 elements in all, initial or grown.
 */
export const MAX_TABLES = 8;
/** The export through which the host reads what is left of the fuel. */
export const FUEL_EXPORT = 'skillctl_fuel';
/** The export through which the host calls the module's start function. */
export const START_EXPORT = 'skillctl_start';

/** The import modules the host offers, each with its calls; a module imports from one of them. */
const OFFERED: Readonly<Record<string, Readonly<Record<string, FuncType>>>> = { [HOST_MODULE]: HOSTCALL_TYPES, [WASI_MODULE]: WASI_TYPES };

export interface ModuleLimits {
  readonly memoryBytes: number;
  /** Instructions the module may execute; undefined: not metered. */
  readonly fuel?: number;
  /** The export the run calls; undefined: the ABI's own (`_start` for a WASI command, else `run`). */
  readonly entry?: string;
}

/** Why a module is refused before it starts. */
export interface ModuleRefusal {
  readonly code: 'RUN_WASM_INVALID' | 'RUN_WASM_IMPORT_REFUSED' | 'RUN_WASM_MEMORY_LIMIT' | 'RUN_WASM_ENTRY_INVALID';
  readonly message: string;
}

export interface PreparedModule {
  readonly bytes: Uint8Array;
  /** The export the run calls. */
  readonly entry: string;
  /** The host calls the module imports, by name. */
  readonly hostcalls: readonly string[];
  /** A WASI command: it imports from wasi_snapshot_preview1 (and from nothing else). */
  readonly wasi: boolean;
  /** Whether the entry returns an i32 (else nothing). */
  readonly returnsI32: boolean;
  readonly metered: boolean;
}

class Refused extends Error {
  constructor(readonly refusal: ModuleRefusal) {
    super(refusal.message);
  }
}

const refuse = (code: ModuleRefusal['code'], message: string): never => {
  throw new Refused({ code, message });
};

export function prepareModule(bytes: Uint8Array, limits: ModuleLimits): PreparedModule | { readonly refused: ModuleRefusal } {
  if (bytes.length > MAX_MODULE_BYTES) return { refused: { code: 'RUN_WASM_INVALID', message: `the module is ${bytes.length} bytes, more than ${MAX_MODULE_BYTES}` } };
  try {
    return rewrite(bytes, limits);
  } catch (err) {
    if (err instanceof Refused) return { refused: err.refusal };
    if (err instanceof ByteLimitError) return { refused: { code: 'RUN_WASM_INVALID', message: `the module's code, metered, would be larger than ${err.max} bytes` } };
    if (err instanceof WasmFormatError || err instanceof RangeError) return { refused: { code: 'RUN_WASM_INVALID', message: `the module is not valid WebAssembly: ${err.message}` } };
    throw err;
  }
}

function rewrite(bytes: Uint8Array, limits: ModuleLimits): PreparedModule {
  const list = sections(bytes);
  const find = (id: number): Section | undefined => list.find((s) => s.id === id);
  const types = FuncTypes.read(bytes, find(1));
  /** New payloads by section id; null drops the section. */
  const replaced = new Map<number, Payload>();

  // Imports: the host's calls, with their types; nothing else.
  const hostcalls: string[] = [];
  const importTypes: number[] = [];
  let abi: string | undefined;
  const imports = find(2);
  if (imports !== undefined) {
    const r = new Reader(bytes, imports.start, imports.end);
    const n = r.u32();
    for (let i = 0; i < n; i++) {
      const mod = r.name();
      const name = r.name();
      const kind = r.byte();
      const what = `${JSON.stringify(mod)}.${JSON.stringify(name)}`;
      const table = Object.hasOwn(OFFERED, mod) ? OFFERED[mod] : undefined;
      if (table === undefined) refuse('RUN_WASM_IMPORT_REFUSED', `the module imports ${what} from module ${JSON.stringify(mod)}; this host offers only the import modules "${HOST_MODULE}" and "${WASI_MODULE}"`);
      if (abi !== undefined && abi !== mod) refuse('RUN_WASM_IMPORT_REFUSED', `the module imports ${what} besides calls of "${abi}"; a module imports from one of "${HOST_MODULE}" and "${WASI_MODULE}"`);
      abi = mod;
      if (kind !== 0) refuse('RUN_WASM_IMPORT_REFUSED', `the module imports ${what} as a ${['function', 'table', 'memory', 'global', 'tag'][kind] ?? 'value'}; the host offers only functions`);
      const typeIndex = r.u32();
      const want = table?.[name];
      if (want === undefined || !Object.hasOwn(table ?? {}, name)) refuse('RUN_WASM_IMPORT_REFUSED', `the module imports ${what}, which the host does not offer`);
      const got = types.get(typeIndex);
      if (got === undefined) throw new WasmFormatError(`import ${what} names type ${typeIndex}, which does not exist`);
      if (!sameType(got, want as FuncType)) refuse('RUN_WASM_IMPORT_REFUSED', `the module imports ${what} as ${typeText(got)}; the host gives it as ${typeText(want as FuncType)}`);
      hostcalls.push(name);
      importTypes.push(typeIndex);
    }
  }
  /** The type index of function `index` (imports first, then the module's own), or undefined. */
  const funcType = (index: number): number | undefined => {
    if (index < importTypes.length) return importTypes[index];
    const funcs = find(3);
    if (funcs === undefined) return undefined;
    const r = new Reader(bytes, funcs.start, funcs.end);
    const n = r.u32();
    const own = index - importTypes.length;
    for (let i = 0; i < n; i++) {
      const t = r.u32();
      if (i === own) return t;
    }
    return undefined;
  };

  // Memory: at most one, its minimum within the grant, its maximum lowered to the grant.
  const grantPages = Math.floor(limits.memoryBytes / PAGE_BYTES);
  const memory = find(5);
  if (memory !== undefined) {
    const r = new Reader(bytes, memory.start, memory.end);
    const n = r.u32();
    if (n > 1) refuse('RUN_WASM_INVALID', `the module declares ${n} memories; the host gives one`);
    if (n === 1) {
      const l = readLimits(r);
      if ((l.flags & 6) !== 0) refuse('RUN_WASM_INVALID', 'the module declares a shared or 64-bit memory; the host gives one 32-bit unshared memory');
      if (l.min > grantPages) refuse('RUN_WASM_MEMORY_LIMIT', `the module's memory starts at ${l.min} pages (${l.min * 64} KiB), more than the ${grantPages} pages (${limits.memoryBytes} bytes) granted`);
      replaced.set(5, [1, ...limitsBytes(l.min, Math.min(l.max ?? grantPages, grantPages))]);
    }
  }

  // Tables: capped in number, and each in elements like memory in pages.
  const tables = find(4);
  if (tables !== undefined) {
    const r = new Reader(bytes, tables.start, tables.end);
    const n = r.u32();
    if (n > MAX_TABLES) refuse('RUN_WASM_MEMORY_LIMIT', `the module declares ${n} tables, more than ${MAX_TABLES}`);
    const out = [...u32Bytes(n)];
    for (let i = 0; i < n; i++) {
      // funcref or externref; a typed reference or a table with an initializer is refused, not misread.
      const ref = skipRefType(r);
      const l = readLimits(r);
      if ((l.flags & 6) !== 0) refuse('RUN_WASM_INVALID', `the module's table ${i} is shared or 64-bit; the host gives 32-bit unshared tables`);
      if (l.min > MAX_TABLE_ELEMENTS) refuse('RUN_WASM_MEMORY_LIMIT', `the module's table ${i} starts at ${l.min} elements, more than ${MAX_TABLE_ELEMENTS}`);
      out.push(ref);
      pushAll(out, limitsBytes(l.min, Math.min(l.max ?? MAX_TABLE_ELEMENTS, MAX_TABLE_ELEMENTS)));
    }
    replaced.set(4, out);
  }

  // Exports: the entry, with one of the two signatures. A WASI command starts at _start.
  const wasi = abi === WASI_MODULE;
  const entry = limits.entry ?? (wasi ? WASI_ENTRY : PROVENACT_ENTRY);
  if (wasi && entry !== WASI_ENTRY) refuse('RUN_WASM_ENTRY_INVALID', `the module is a WASI command (it imports ${JSON.stringify(WASI_MODULE)}); it starts at ${JSON.stringify(WASI_ENTRY)}, not ${JSON.stringify(entry)}`);
  let returnsI32 = false;
  const exportsSection = find(7);
  const exportNames = new Set<string>();
  let entryFunc: number | undefined;
  if (exportsSection !== undefined) {
    const r = new Reader(bytes, exportsSection.start, exportsSection.end);
    const n = r.u32();
    for (let i = 0; i < n; i++) {
      const name = r.name();
      const kind = r.byte();
      const index = r.u32();
      exportNames.add(name);
      if (name === entry && kind === 0) entryFunc = index;
    }
  }
  if (entryFunc === undefined) refuse('RUN_WASM_ENTRY_INVALID', `the module exports no function ${JSON.stringify(entry)}`);
  const entryType = types.get(funcType(entryFunc as number) ?? -1);
  if (entryType === undefined) throw new WasmFormatError('the entry function has no type');
  if (entryType.params.length > 0 || entryType.results.length > 1 || (entryType.results.length === 1 && entryType.results[0] !== I32)) {
    refuse('RUN_WASM_ENTRY_INVALID', `the entry ${JSON.stringify(entry)} is ${typeText(entryType)}; the host calls () -> i32 or () -> ()`);
  }
  returnsI32 = entryType.results.length === 1;
  if (wasi && returnsI32) refuse('RUN_WASM_ENTRY_INVALID', `the WASI command's ${JSON.stringify(WASI_ENTRY)} is ${typeText(entryType)}; a command's is () -> ()`);

  // The start function runs when the host calls it, after instantiation, so that its hostcalls
  // reach the module's memory and its traps (fuel included) are told apart like the entry's.
  const extraExports: number[][] = [];
  const reserved = (name: string): void => {
    if (exportNames.has(name)) refuse('RUN_WASM_INVALID', `the module exports ${JSON.stringify(name)}, a name the host keeps for itself`);
  };
  const start = find(8);
  if (start !== undefined) {
    reserved(START_EXPORT);
    const index = new Reader(bytes, start.start, start.end).u32();
    // The module's own function, never a host call the host would then make on its behalf.
    if (index < hostcalls.length) refuse('RUN_WASM_INVALID', `the module's start function is the imported ${JSON.stringify(hostcalls[index])}; a start function must be the module's own`);
    replaced.set(8, null);
    extraExports.push([...nameBytes(START_EXPORT), 0x00, ...u32Bytes(index)]);
  }
  if (limits.fuel !== undefined) {
    reserved(FUEL_EXPORT);
    // The counter: a new global after the module's own (only functions are imported, above).
    const globals = find(6);
    let count = 0;
    let body: Uint8Array = new Uint8Array(0);
    if (globals !== undefined) {
      const r = new Reader(bytes, globals.start, globals.end);
      count = r.u32();
      const first = r.pos;
      for (let i = 0; i < count; i++) {
        skipValType(r);
        r.byte();
        skipConstExpr(r);
      }
      body = bytes.subarray(first, r.pos);
    }
    // And after it where the inserted code holds a value (meter.ts): the i32 a bulk instruction's
    // length waits in while it is charged, and the f32, f64 and v128 a float result waits in while
    // it is made canonical.
    const scratch = [[I32, 0x01, 0x41, 0x00, 0x0b], [0x7d, 0x01, 0x43, 0, 0, 0, 0, 0x0b], [0x7c, 0x01, 0x44, 0, 0, 0, 0, 0, 0, 0, 0, 0x0b], [0x7b, 0x01, 0xfd, 0x0c, ...new Array<number>(16).fill(0), 0x0b]];
    replaced.set(6, concatBytes([u32Bytes(count + 1 + scratch.length), body, [I64, 0x01, 0x42, ...s64Bytes(limits.fuel), 0x0b], ...scratch]));
    extraExports.push([...nameBytes(FUEL_EXPORT), 0x03, ...u32Bytes(count)]);
    const code = find(10);
    if (code !== undefined) replaced.set(10, meterCode(bytes, code.start, code.end, count, count + 1, MAX_METERED_CODE_BYTES));
  }
  if (extraExports.length > 0) {
    const exp = exportsSection as Section;
    const r = new Reader(bytes, exp.start, exp.end);
    const n = r.u32();
    replaced.set(7, concatBytes([u32Bytes(n + extraExports.length), bytes.subarray(r.pos, exp.end), ...extraExports]));
  }

  return { bytes: assemble(bytes, list, replaced), entry, hostcalls, wasi, returnsI32, metered: limits.fuel !== undefined };
}
