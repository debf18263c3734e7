import { diag, type Diagnostic } from '../../diagnostics.js';
import type { DeterminismCheck } from './check.js';

/**
 * Variables that set a locale, a time zone or an encoding. An entrypoint that asks for one from
 * the host takes that part of its context from wherever it runs, not from its declaration or the
 * documented defaults (C.UTF-8, UTC, utf-8): hidden context (seed 003, execution context).
 */
function contextOf(name: string): 'locale' | 'timezone' | 'encoding' | undefined {
  if (/^(?:LANG|LANGUAGE|LC_[A-Z]+)$/.test(name)) return 'locale';
  if (name === 'TZ' || name === 'TZDIR') return 'timezone';
  if (/^PYTHON(?:IOENCODING|UTF8|COERCECLOCALE)$/.test(name)) return 'encoding';
  return undefined;
}

/** Execution context declared or defaulted, not read from the host. */
export const contextDeclared: DeterminismCheck = {
  name: 'context',
  check({ ep, pointer, unreadable, label }, data) {
    if (unreadable.has('required_environment_variables')) return [];
    let names: readonly unknown[];
    let at: string;
    let whose: string;
    if (ep.required_environment_variables !== undefined) {
      names = ep.required_environment_variables;
      at = `${pointer}/required_environment_variables`;
      whose = `entrypoint ${label}`;
    } else {
      // Inherited: the same finding for every entrypoint that inherits it, so it is listed once.
      const ctx = data.execution_context;
      const list = ctx !== null && typeof ctx === 'object' ? (ctx as Record<string, unknown>).required_environment_variables : undefined;
      if (!Array.isArray(list)) return [];
      names = list;
      at = '/execution_context/required_environment_variables';
      whose = 'execution_context';
    }
    const out: Diagnostic[] = [];
    names.forEach((name, i) => {
      const field = typeof name === 'string' ? contextOf(name) : undefined;
      if (field === undefined) return;
      out.push(
        diag('DETERMINISM_CONTEXT_FROM_HOST', `${whose} requires ${String(name)} from the host: its ${field} is then the host's, neither declared nor defaulted`, {
          pointer: `${at}/${i}`,
          hint: `declare execution_context.${field} and drop ${String(name)} from required_environment_variables`,
        }),
      );
    });
    return out;
  },
};
