/** Option parsers shared by command definitions (light: no imports). */

/** `--min-signers <n>`: an integer from 0 to 64. */
export function parseMinSigners(value: string): number {
  if (!/^(0|[1-9][0-9]?)$/.test(value) || Number(value) > 64) throw new Error(`--min-signers must be an integer from 0 to 64, not ${value}`);
  return Number(value);
}
