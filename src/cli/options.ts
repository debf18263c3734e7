/** Option parsers shared by command definitions (light imports only: every command's index.ts is in the main bundle). */
import { InvalidArgumentError } from 'commander';

/** `--min-signers <n>`: an integer from 0 to 64. */
export function parseMinSigners(value: string): number {
  if (!/^(0|[1-9][0-9]?)$/.test(value) || Number(value) > 64) throw new InvalidArgumentError('an integer from 0 to 64 is required.');
  return Number(value);
}

/**
 * `--timeout <seconds>`: a positive number of seconds, at most a day (pull's skill:// per request,
 * pull's oci:// and push's for the whole registry exchange).
 */
export function parseTimeout(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0) || n > 86_400) throw new InvalidArgumentError('a number of seconds above 0 and at most 86400 is required.');
  return n;
}

/** commander's accumulator for a repeatable option (`--contracts a --contracts b`). */
export function collect(value: string, previous: readonly string[] = []): string[] {
  return [...previous, value];
}
