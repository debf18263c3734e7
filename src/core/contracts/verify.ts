/**
 * Compiles every contract of a set, for `contract list`: what loading cannot see (a pattern that
 * is no valid regular expression, say) shows up here. A contract that does not compile is
 * reported and dropped, and so is every contract that refers to it.
 */
import { diag, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import { compileContract, compilePayloadSchema, type PayloadValidator } from './compile.js';
import type { Contract, ContractSet } from './model.js';
import { pushAll } from '../findings.js';

function dependsOn(set: ContractSet, c: Contract, bad: ReadonlySet<string>): string | undefined {
  const seen = new Set<string>();
  const stack = [...c.uses];
  while (stack.length > 0) {
    const name = stack.pop() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    if (bad.has(name) && name !== c.name) return name;
    pushAll(stack, set.contracts.find((x) => x.name === name)?.uses ?? []);
  }
  return undefined;
}

export async function verifyContractSet(set: ContractSet): Promise<ContractSet> {
  // One compilation of them all is the common case (each compilation starts a fresh ajv, and
  // checking the refs against the meta-schema dominates); only a failure is narrowed down.
  if (!('error' in (await compilePayloadSchema({ allOf: set.contracts.map((c) => ({ $ref: c.id })) }, set)))) return set;
  const failed = new Map<string, Diagnostic>();
  for (const c of set.contracts) {
    const v: PayloadValidator | { error: Diagnostic } = await compileContract(set, c);
    if ('error' in v) failed.set(c.name, v.error);
  }
  if (failed.size === 0) return set;
  const bad = new Set(failed.keys());
  // A contract fails to compile when one it refers to does; name the cause where there is one.
  const own = [...bad].filter((name) => dependsOn(set, set.contracts.find((c) => c.name === name) as Contract, bad) === undefined);
  const diagnostics: Diagnostic[] = [...set.diagnostics];
  for (const c of set.contracts) {
    const error = failed.get(c.name);
    if (error === undefined) continue;
    const cause = own.length > 0 ? dependsOn(set, c, new Set(own)) : undefined;
    diagnostics.push(
      cause !== undefined
        ? diag('CONTRACT_REF_UNRESOLVED', `refers to contract ${cause}, which does not compile`, { file: c.file })
        : diag('CONTRACT_MALFORMED', error.message, { file: c.file }),
    );
  }
  return {
    contracts: set.contracts.filter((c) => !bad.has(c.name)),
    diagnostics: sortDiagnostics(diagnostics),
    rejected: [...set.rejected, ...set.contracts.filter((c) => bad.has(c.name)).map((c) => ({ file: c.file, name: c.name }))].sort((a, b) =>
      a.file < b.file ? -1 : a.file > b.file ? 1 : 0,
    ),
  };
}
