/**
 * Checks one contract document against schemas/contract.schema.json, compiled at build time:
 * JSON Schema 2020-12, an absolute `$id`, a versioned `contract` name, valid values for
 * skillctl's keywords, and no keyword outside those two vocabularies (a misspelt `maxWord`
 * would otherwise be ignored, and the payloads it was meant to stop would pass).
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { patternProblem, schemaErrorsToDiagnostics, type StandaloneValidator } from '../json-schema/index.js';
import { childPointer } from '../manifest/index.js';
import { closest } from '../suggest.js';
import { schemaNodes } from './refs.js';
import { validate as validateContract } from '../../generated/contract.validator.js';
import contractMeta from '../../../schemas/contract.schema.json' with { type: 'json' };

const validator = validateContract as StandaloneValidator;

/** Every keyword a contract may use (x- extensions aside). */
export const KNOWN_KEYWORDS: readonly string[] = contractMeta.$defs.vocabulary.propertyNames.anyOf[0]?.enum ?? [];

/** The meta-schema of each skillctl keyword's value. */
export const KEYWORD_VALUE_SCHEMAS: Readonly<Record<string, unknown>> = contractMeta.$defs.vocabulary.properties;

/**
 * Patterns are matched in linear time (RE2); one RE2 cannot express (look-around, a
 * back-reference) is refused when the contract is loaded, where it is written.
 */
function patternFindings(data: unknown): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { node, pointer } of schemaNodes(data, 'x-skillctl:/contract')) {
    if (typeof node.pattern === 'string') {
      const problem = patternProblem(node.pattern);
      if (problem !== undefined) out.push(diag('CONTRACT_MALFORMED', `pattern ${JSON.stringify(node.pattern)} ${problem}`, { pointer: childPointer(pointer, 'pattern') }));
    }
    const props = node.patternProperties;
    if (props !== null && typeof props === 'object') {
      for (const p of Object.keys(props)) {
        const problem = patternProblem(p);
        if (problem !== undefined) out.push(diag('CONTRACT_MALFORMED', `patternProperties key ${JSON.stringify(p)} ${problem}`, { pointer: childPointer(pointer, 'patternProperties') }));
      }
    }
  }
  return out;
}

export function checkContractDocument(data: unknown): Diagnostic[] {
  if (validator(data)) return patternFindings(data);
  const errors = validator.errors ?? [];
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  const once = (d: Diagnostic): void => {
    if (seen.has(d.pointer ?? '')) return;
    seen.add(d.pointer ?? '');
    out.push(d);
  };
  for (const e of errors) {
    if (e.propertyName === undefined) continue;
    const guess = closest(e.propertyName, KNOWN_KEYWORDS);
    once(
      diag('CONTRACT_UNKNOWN_KEYWORD', `unknown keyword \`${e.propertyName}\``, {
        pointer: childPointer(e.instancePath, e.propertyName),
        hint:
          guess !== undefined
            ? `did you mean \`${guess}\`?`
            : 'contracts use JSON Schema 2020-12 and skillctl contract keywords only; name an extension x-...',
      }),
    );
  }
  const rest = errors.filter((e) => e.propertyName === undefined && e.keyword !== 'propertyNames');
  for (const d of schemaErrorsToDiagnostics(rest, data, { schema: contractMeta as Record<string, unknown> })) {
    once(diag('CONTRACT_MALFORMED', d.message, { pointer: d.pointer ?? '', ...(d.hint !== undefined ? { hint: d.hint } : {}) }));
  }
  return out;
}
