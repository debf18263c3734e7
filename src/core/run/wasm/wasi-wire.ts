/**
 * The messages between a WASI module's thread and the host's side of its file calls: the thread
 * forwards each call that reaches a file (stdin, stdout and stderr are answered there) and waits
 * for the answer, an errno and what the call gives back.
 */
import { ERRNO } from './wasi-abi.js';

/** A file call the module's thread forwards. */
export type WasiRequest = { readonly op: 'wasi' } & (
  | { readonly call: 'path_open'; readonly fd: number; readonly follow: boolean; readonly path: string; readonly oflags: number; readonly rightsBase: bigint; readonly rightsInheriting: bigint; readonly fdflags: number }
  | { readonly call: 'fd_read'; readonly fd: number; readonly max: number; readonly offset?: bigint }
  | { readonly call: 'fd_write'; readonly fd: number; readonly data: Uint8Array; readonly offset?: bigint }
  /** Whether an fd_write of `size` bytes would be taken, asked before its bytes are copied (wasi-abi.ts WASI_UNCHECKED_WRITE_BYTES). */
  | { readonly call: 'fd_write_check'; readonly fd: number; readonly size: number; readonly offset?: bigint }
  | { readonly call: 'fd_seek'; readonly fd: number; readonly offset: bigint; readonly whence: number }
  | { readonly call: 'fd_close' | 'fd_sync' | 'fd_datasync' | 'fd_advise' | 'fd_fdstat_get' | 'fd_filestat_get' | 'fd_prestat_get' | 'fd_prestat_dir_name'; readonly fd: number }
  | { readonly call: 'fd_allocate'; readonly fd: number; readonly offset: bigint; readonly len: bigint }
  | { readonly call: 'fd_filestat_set_size'; readonly fd: number; readonly size: bigint }
  | { readonly call: 'fd_readdir'; readonly fd: number; readonly cookie: bigint; readonly max: number }
  | { readonly call: 'path_filestat_get'; readonly fd: number; readonly follow: boolean; readonly path: string }
  | { readonly call: 'path_create_directory' | 'path_unlink_file' | 'path_remove_directory'; readonly fd: number; readonly path: string }
  | { readonly call: 'path_rename'; readonly fd: number; readonly path: string; readonly fd2: number; readonly path2: string }
);

/** The request of a call named `C` (some members name several calls that share a shape). */
export type WasiCall<C extends WasiRequest['call']> = WasiRequest extends infer R ? (R extends { readonly call: infer K } ? (C extends K ? R : never) : never) : never;

/** An errno, and what the call gives back: bytes for the guest's memory, or a number. */
export interface WasiAnswer {
  readonly kind: 'wasi';
  readonly errno: number;
  readonly data?: Uint8Array;
  readonly value?: bigint;
}

export const ok = (extra: { data?: Uint8Array; value?: bigint } = {}): WasiAnswer => ({ kind: 'wasi', errno: ERRNO.SUCCESS, ...extra });
export const err = (errno: number): WasiAnswer => ({ kind: 'wasi', errno });
/** An answer already (a refusal or an error), rather than the descriptor or path asked for. */
export const isAnswer = (v: object): v is WasiAnswer => 'errno' in v;
