import { diag, type Diagnostic } from '../../diagnostics.js';
import type { Rule } from './rule.js';

const POSIX_LOCALE = /^(?:C|POSIX|C\.UTF-8|[a-z]{2,3}(?:_[A-Z]{2})?(?:\.[A-Za-z0-9-]+)?(?:@[A-Za-z0-9]+)?)$/;

function validLocale(v: string): boolean {
  if (POSIX_LOCALE.test(v)) return true;
  try {
    return Intl.getCanonicalLocales(v).length === 1;
  } catch {
    return false;
  }
}

/**
 * A tzdata name as /usr/share/zoneinfo spells it: each part starts with a capital (`Europe/Berlin`,
 * `Etc/GMT+1`, `EST5EDT`). The skill gets the name as TZ (and /etc/localtime under bubblewrap),
 * which glibc, Python and Node look up by exact file name; ICU compares names without regard to
 * case and, from Node 22, takes UTC offsets (`+01:00`) too: such a name validated, on one Node
 * and not another, and the skill ran in UTC.
 */
const ZONE_NAME = /^[A-Z][A-Za-z0-9_+-]*(?:\/[A-Z][A-Za-z0-9_+-]*)*$/;

function validTimezone(v: string): boolean {
  // The first Intl time-zone lookup loads ICU's zone data (over 10 ms); UTC needs none.
  if (v === 'UTC' || v === 'Etc/UTC' || v === 'GMT' || v === 'Etc/GMT') return true;
  if (!ZONE_NAME.test(v)) return false;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: v }).resolvedOptions().timeZone;
    // ICU's own name in other capitals (`Europe/BERLIN`) is no file; a link (`US/Pacific`) resolves to another name.
    return resolved === v || resolved.toLowerCase() !== v.toLowerCase();
  } catch {
    return false;
  }
}

function validEncoding(v: string): boolean {
  try {
    new TextDecoder(v);
    return true;
  } catch {
    return false;
  }
}

/** Intl and TextDecoder construction is slow (tens of µs); the same values recur across manifests. */
function memo(fn: (v: string) => boolean): (v: string) => boolean {
  const cache = new Map<string, boolean>();
  return (v) => {
    let r = cache.get(v);
    if (r === undefined) {
      r = fn(v);
      if (cache.size < 1024) cache.set(v, r);
    }
    return r;
  };
}

const CHECKS = {
  locale: { valid: memo(validLocale), example: 'C.UTF-8 or en-US' },
  timezone: { valid: memo(validTimezone), example: 'UTC or Europe/Berlin' },
  encoding: { valid: memo(validEncoding), example: 'utf-8' },
} as const;

function checkContext(ctx: unknown, at: string, out: Diagnostic[]): void {
  if (ctx === undefined || ctx === null || typeof ctx !== 'object') return;
  for (const [field, { valid, example }] of Object.entries(CHECKS)) {
    const v = (ctx as Record<string, unknown>)[field];
    if (typeof v === 'string' && !valid(v)) {
      out.push(diag('EXECUTION_CONTEXT_INVALID', `${field} ${JSON.stringify(v)} is not a known ${field}`, { pointer: `${at}/${field}`, hint: `e.g. ${example}` }));
    }
  }
}

export const executionContext: Rule = {
  name: 'execution-context',
  check({ data, entrypoints }) {
    const out: Diagnostic[] = [];
    checkContext(data.execution_context, '/execution_context', out);
    for (const { ep, pointer } of entrypoints) checkContext(ep.execution_context, `${pointer}/execution_context`, out);
    return out;
  },
};
