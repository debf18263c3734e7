/**
 * Keeps V8's young generation at the size it has, for a command about to stream a large layer:
 * see heapForStreaming in src/entry/boot.cjs (the start-up wing, which owns the code caches a V8
 * flag change affects). Without the boot loader (the CLI's modules imported by hand) it does nothing.
 */
export function keepYoungGenerationSmall(): void {
  const boot = (globalThis as Record<symbol, { heapForStreaming?: () => void } | undefined>)[Symbol.for('skillctl.boot')];
  boot?.heapForStreaming?.();
}
