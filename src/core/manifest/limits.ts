/**
 * Runtime limits with units. A bare number is in the canonical unit of its field (seconds,
 * MiB, bytes); a string names its unit. docs/formats/manifest.md lists the units.
 */
import type { Limit, RuntimeLimits } from './model.js';

export interface ResolvedLimits {
  readonly timeoutMs: number;
  readonly memoryMiB: number;
  readonly maxOutputBytes: number;
}

/** What an entrypoint gets when it declares no limit (the host policy may lower these). */
export const DEFAULT_LIMITS: ResolvedLimits = { timeoutMs: 60_000, memoryMiB: 512, maxOutputBytes: 1024 * 1024 };

const TIME_UNITS: Record<string, number> = { ms: 1, s: 1000, sec: 1000, m: 60_000, min: 60_000, h: 3_600_000 };
const BYTE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
};

export type LimitField = keyof RuntimeLimits;

export const LIMIT_UNITS: Record<LimitField, { readonly canonical: string; readonly units: readonly string[] }> = {
  max_execution_time: { canonical: 'seconds', units: Object.keys(TIME_UNITS) },
  max_memory: { canonical: 'MiB', units: ['KiB', 'MiB', 'GiB', 'KB', 'MB', 'GB'] },
  max_output_bytes: { canonical: 'bytes', units: ['B', 'KiB', 'MiB', 'GiB', 'KB', 'MB', 'GB'] },
};

function split(value: string): [number, string] | undefined {
  const m = /^\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]+)\s*$/.exec(value);
  return m ? [Number(m[1]), (m[2] as string).toLowerCase()] : undefined;
}

/**
 * The limit in the internal unit of its field (ms, MiB, bytes), or undefined when the value is
 * not positive, has an unknown unit, or is not finite.
 */
export function parseLimit(field: LimitField, value: Limit): number | undefined {
  let amount: number;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return undefined;
    amount = field === 'max_execution_time' ? value * 1000 : value;
  } else {
    const parts = split(value);
    if (parts === undefined) return undefined;
    const [n, unit] = parts;
    if (field === 'max_execution_time') {
      const f = TIME_UNITS[unit];
      if (f === undefined) return undefined;
      amount = n * f;
    } else {
      const f = BYTE_UNITS[unit];
      if (f === undefined) return undefined;
      amount = field === 'max_memory' ? (n * f) / 1024 ** 2 : n * f;
    }
  }
  if (!(amount > 0) || !Number.isFinite(amount)) return undefined;
  return field === 'max_output_bytes' ? Math.floor(amount) : amount;
}

/** Declared limits with defaults filled in; invalid values fall back to the default. */
export function resolveLimits(limits: RuntimeLimits): ResolvedLimits {
  const get = (field: LimitField, fallback: number): number => {
    const v = limits[field];
    return v === undefined ? fallback : (parseLimit(field, v) ?? fallback);
  };
  return {
    timeoutMs: get('max_execution_time', DEFAULT_LIMITS.timeoutMs),
    memoryMiB: get('max_memory', DEFAULT_LIMITS.memoryMiB),
    maxOutputBytes: get('max_output_bytes', DEFAULT_LIMITS.maxOutputBytes),
  };
}
