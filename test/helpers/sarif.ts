/**
 * Holds a SARIF document to the SARIF 2.1.0 JSON Schema (fixtures/sarif/, vendored from npm with
 * its provenance in the README there), formats included: an artifact URI that is not a URI
 * reference (a space, a second `#`) fails here as it fails a code-scanning upload.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { fixture } from './paths.js';

let validator: ValidateFunction | undefined;

function compile(): ValidateFunction {
  // A draft-04 schema: its `$schema` and `id` name draft 4, which ajv 8 reads as draft 7 would;
  // the keywords the SARIF schema uses mean the same in both.
  const schema = JSON.parse(readFileSync(fixture('sarif', 'sarif-2.1.0-rtm.5.schema.json'), 'utf8')) as Record<string, unknown>;
  delete schema['$schema'];
  delete schema['id'];
  // Without the u flag: this schema's pattern for `language` has a stray `]`, a literal in a plain
  // regular expression and a syntax error in a Unicode one.
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  (addFormatsModule as unknown as (a: Ajv) => Ajv)(ajv);
  return ajv.compile(schema);
}

/** Parses `text` as SARIF and asserts it is valid SARIF 2.1.0; returns the document. */
export function assertSarif(text: string): SarifLog {
  validator ??= compile();
  const doc = JSON.parse(text) as unknown;
  assert.ok(validator(doc), `not valid SARIF 2.1.0: ${JSON.stringify(validator.errors, null, 2)}`);
  return doc as SarifLog;
}

export interface SarifLog {
  readonly version: string;
  readonly runs: readonly {
    readonly tool: { readonly driver: { readonly rules: readonly { readonly id: string; readonly helpUri?: string }[] } };
    readonly originalUriBaseIds?: Readonly<Record<string, { readonly uri: string }>>;
    readonly results: readonly {
      readonly ruleId: string;
      readonly level: string;
      readonly locations: readonly {
        readonly physicalLocation: { readonly artifactLocation: { readonly uri: string; readonly uriBaseId?: string }; readonly region?: { readonly startLine: number } };
      }[];
    }[];
  }[];
}
