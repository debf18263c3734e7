/**
 * The part of the engine's WebAssembly API the runtime uses. The project compiles without the DOM
 * library, where TypeScript declares WebAssembly, so the shapes are written here.
 */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
export interface WasmGlobal {
  readonly value: unknown;
}
export interface WasmInstance {
  readonly exports: Record<string, unknown>;
}
type ErrorClass = new (message?: string) => Error;

export interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: (new (bytes: Uint8Array) => object) & { exports(module: object): { name: string; kind: string }[] };
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => WasmInstance;
  Memory: new (d: { initial: number; maximum?: number }) => WasmMemory;
  Global: new (d: { value: string; mutable?: boolean }, v?: unknown) => WasmGlobal;
  CompileError: ErrorClass;
  LinkError: ErrorClass;
  RuntimeError: ErrorClass;
}

/** The engine's API, typed. */
export function wasmApi(): WasmApi {
  return (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
}
