/**
 * SARIF 2.1.0 for code-scanning upload: one run, one rule per code that occurs, one result per
 * finding with its file and region. Deterministic: rules and results are sorted.
 */
import { CODES, type Code, type Diagnostic } from '../../core/diagnostics.js';
import { VERSION } from '../../generated/version.js';

const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

function uri(file: string, cwd: string): string {
  const rel = file.startsWith(cwd + '/') ? file.slice(cwd.length + 1) : file;
  return rel.split('\\').join('/');
}

export function renderSarif(diagnostics: readonly Diagnostic[], cwd: string): string {
  const codes = [...new Set(diagnostics.map((d) => d.code))].sort() as Code[];
  const rules = codes.map((code) => ({
    id: code,
    name: code,
    shortDescription: { text: CODES[code].title },
    help: { text: `See docs/codes.md, section ${code}.` },
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
                artifactLocation: { uri: uri(d.file, cwd) },
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
        tool: { driver: { name: 'skillctl', version: VERSION, rules } },
        results,
      },
    ],
  };
  return JSON.stringify(doc, null, 2) + '\n';
}
