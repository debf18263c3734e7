/**
 * The provenact host ABI as skillctl offers it: the import module's name, each hostcall's type
 * (i32 pointers and lengths; a module importing one with another type is refused before it
 * starts, module.ts) and the export a run calls when the command names none.
 * `../shared/reference/provenact.md` §1.7-1.8; docs/formats/wasm.md.
 */
import { I32, I64, type FuncType } from './binary.js';

export const HOST_MODULE = 'provenact';
/** The export a provenact module's run calls when the command names none. */
export const PROVENACT_ENTRY = 'run';

/** The provenact host ABI: each import's type (i32 pointers and lengths). */
export const HOSTCALL_TYPES: Readonly<Record<string, FuncType>> = {
  input_len: { params: [], results: [I32] },
  input_read: { params: [I32, I32, I32], results: [I32] },
  output_write: { params: [I32, I32], results: [I32] },
  sha256_input_hex: { params: [I32, I32], results: [I32] },
  time_now_unix: { params: [], results: [I64] },
  random_fill: { params: [I32, I32], results: [I32] },
  fs_read_file: { params: [I32, I32, I32, I32], results: [I32] },
  fs_read_tree: { params: [I32, I32, I32, I32], results: [I32] },
  fs_write_file: { params: [I32, I32, I32, I32], results: [I32] },
  http_fetch: { params: [I32, I32, I32, I32], results: [I32] },
  kv_put: { params: [I32, I32, I32, I32], results: [I32] },
  kv_get: { params: [I32, I32, I32, I32], results: [I32] },
  queue_publish: { params: [I32, I32, I32, I32], results: [I32] },
  queue_consume: { params: [I32, I32, I32, I32], results: [I32] },
};
