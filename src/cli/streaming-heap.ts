/**
 * Keeps V8's young generation at the size it has, for a command about to stream a large layer:
 * see heapForStreaming in src/entry/boot.cjs (the start-up wing, which owns the code caches a V8
 * flag change affects). Without the boot loader (the CLI's modules imported by hand) it does nothing.
 *
 * `bundle`: `streams` for a command whose bundle always streams (push), whose code cache is then
 * written with what it compiled so far; `also-answers-from-cache` for one whose bundle also
 * answers without streaming (pull, pin, registry oci://: a layer already cached and in place),
 * whose cache is left for such a run to write whole.
 */
export function keepYoungGenerationSmall(bundle: 'streams' | 'also-answers-from-cache' = 'streams'): void {
  const boot = (globalThis as Record<symbol, { heapForStreaming?: (writeMadeSoFar: boolean) => void } | undefined>)[Symbol.for('skillctl.boot')];
  boot?.heapForStreaming?.(bundle === 'streams');
}

/** What a pull from a registry or the cache calls before a layer is read (PullRequest.beforeTransfer). */
export const beforeLayerTransfer = (): void => keepYoungGenerationSmall('also-answers-from-cache');
