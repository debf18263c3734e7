/**
 * SARIF 2.1.0 for code-scanning upload: one run, one rule per code that occurs (each linking to its
 * entry in docs/codes.md), one result per finding with its file and region. Deterministic: rules
 * and results are sorted. test/helpers/sarif.ts holds every document the tests produce to the
 * SARIF 2.1.0 JSON Schema.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CODES, type Code, type Diagnostic } from '../../core/diagnostics.js';
import { VERSION } from '../../generated/version.js';
import { visible } from '../../core/visible.js';

const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

/** The base every artifact URI is relative to: the working directory (§3.14.14, originalUriBaseIds). */
const SRCROOT = '%SRCROOT%';

/** docs/codes.md of this release: each code is a `### CODE` heading, whose anchor is its lower case. */
const CODES_DOC = `https://github.com/skillctl/skillctl/blob/v${VERSION}/docs/codes.md`;

/**
 * A file's artifactLocation: a URI reference relative to %SRCROOT% (`../` for a file beside the
 * working directory, so a scanner can still map it), each path segment percent-encoded (a space
 * or `#` in a folder name is not a URI character); an absolute file URI only where no relative
 * path exists (another drive).
 */
function artifactLocation(file: string, cwd: string): { uri: string; uriBaseId?: string } {
  const rel = relative(cwd, resolve(cwd, file));
  if (isAbsolute(rel)) return { uri: pathToFileURL(file).href };
  return { uri: rel.split(sep).map(encodeURIComponent).join('/'), uriBaseId: SRCROOT };
}

/** The working directory as a base URI, which ends with a slash (SARIF §3.14.14). */
function srcRoot(cwd: string): string {
  const href = pathToFileURL(resolve(cwd)).href;
  return href.endsWith('/') ? href : `${href}/`;
}

export function renderSarif(diagnostics: readonly Diagnostic[], cwd: string): string {
  const codes = [...new Set(diagnostics.map((d) => d.code))].sort() as Code[];
  const rules = codes.map((code) => ({
    id: code,
    name: code,
    shortDescription: { text: CODES[code].title },
    help: { text: `See docs/codes.md, section ${code}.` },
    helpUri: `${CODES_DOC}#${code.toLowerCase()}`,
    defaultConfiguration: { level: LEVEL[CODES[code].severity] },
  }));
  const results = diagnostics.map((d) => ({
    ruleId: d.code,
    ruleIndex: codes.indexOf(d.code),
    level: LEVEL[d.severity],
    message: { text: d.hint !== undefined ? `${d.message} (hint: ${d.hint})` : d.message },
    locations:
      d.file === undefined
        ? []
        : [
            {
              physicalLocation: {
                artifactLocation: artifactLocation(d.file, cwd),
                ...(d.line !== undefined ? { region: { startLine: d.line, startColumn: d.column ?? 1 } } : {}),
              },
              ...(d.pointer !== undefined ? { logicalLocations: [{ fullyQualifiedName: d.pointer, kind: 'member' }] } : {}),
            },
          ],
  }));
  const doc = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'skillctl', version: VERSION, informationUri: 'https://github.com/skillctl/skillctl', rules } },
        originalUriBaseIds: { [SRCROOT]: { uri: srcRoot(cwd) } },
        results,
      },
    ],
  };
  // As renderJson: DEL and C1 escaped too (JSON.stringify leaves them raw).
  return visible(JSON.stringify(doc, null, 2)) + '\n';
}
