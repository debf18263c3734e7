import type { CodeCatalogue } from '../../code-spec.js';

/** The wasm runtime: modules refused before they start, and how a module's run can end. */
export const WASM_CODES = {
  RUN_WASM_INVALID: { severity: 'error', title: 'The wasm module cannot be read, is not valid WebAssembly, or uses a feature the host cannot run or meter.', exit: 'findings' },
  RUN_WASM_IMPORT_REFUSED: {
    severity: 'error',
    title: 'The wasm module imports something the host does not offer (another import module, such as the old `inactu`, or an unknown call); it was not started.',
    exit: 'findings',
  },
  RUN_WASM_ENTRY_INVALID: { severity: 'error', title: 'The wasm module does not export the entry function, or its signature is neither () -> i32 nor () -> ().', exit: 'findings' },
  RUN_WASM_MEMORY_LIMIT: {
    severity: 'error',
    title: "The wasm module's initial memory or a table is larger than the run grants, or it declares more tables than the host allows; it was not started.",
    exit: 'findings',
  },
  RUN_WASM_FUEL_EXHAUSTED: { severity: 'error', title: 'fuel exhausted: the wasm module executed its instruction budget and was stopped.', exit: 'findings' },
  RUN_WASM_TRAP: { severity: 'error', title: 'The wasm module trapped (unreachable, out-of-bounds access, stack overflow...).', exit: 'findings' },
  RUN_WASM_UNIMPLEMENTED: { severity: 'error', title: 'The wasm module is a placeholder: it wrote UNIMPLEMENTED_HOSTCALL instead of a result.', exit: 'findings' },
  RUN_WASM_CAPABILITY_UNSUPPORTED: {
    severity: 'error',
    title: 'The wasm module called a hostcall whose provenact capability (time.now, random.bytes, kv.*, queue.*) skillctl cannot grant; it was stopped.',
    exit: 'denied',
  },
  AUDIT_RECEIPT_INCONSISTENT: {
    severity: 'error',
    title: "A wasm run's receipt (result.wasm) disagrees with its record: caps_used are not the kinds of the capabilities used, or a digest is malformed.",
    exit: 'findings',
  },
} as const satisfies CodeCatalogue;
