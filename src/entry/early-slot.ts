/**
 * Where a thread the start-up wing started waits for the run that takes it. The start-up wing's
 * bundles (dist/wasm-early.cjs, dist/builtin-early.cjs) and the run's chunk are loaded apart, each
 * with its own copy of every module, so the hand-over is a global under a registered symbol.
 */
export interface EarlySlot<T> {
  put(value: T): void;
  /** The value put, handed over once. */
  take(): T | undefined;
}

export function earlySlot<T>(name: string): EarlySlot<T> {
  const key = Symbol.for(name);
  const slot = globalThis as Record<symbol, T | undefined>;
  return {
    put(value) {
      slot[key] = value;
    },
    take() {
      const value = slot[key];
      slot[key] = undefined;
      return value;
    },
  };
}
