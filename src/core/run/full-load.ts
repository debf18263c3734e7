import type * as Full from './full.js';

/** The heavy half of a run (full.ts), loaded when a run first needs it. */
export function loadFull(): Promise<typeof Full> {
  return import('./full.js');
}
