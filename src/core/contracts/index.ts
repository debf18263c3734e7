/**
 * Payload contracts (seed 001): JSON Schema 2020-12 documents plus skillctl's keywords, checked
 * on the payloads an orchestrating agent and its skills exchange. docs/formats/contract.md.
 *
 * For the run engine: `loadContractSet` once, `compilePayloadSchema(entrypoint.output_schema,
 * set)` once per entrypoint, then `enforceOutput({ produce, check: (out) => v.check(out, { input }), retries })`.
 */
export { BUILTIN_CONTRACT_BASE } from './builtin.js';
export { CONTRACT_CODES } from './codes.js';
export {
  compileContract,
  compilePayloadSchema,
  contractCompileOptions,
  jsonValueIssues,
  type PayloadContext,
  type PayloadValidator,
} from './compile.js';
export { enforceOutput, type AttemptReport, type EnforceOptions, type EnforceResult } from './enforce.js';
export { CONTRACT_KEYWORDS, type ContractKeyword, type KeywordContext } from './keywords/index.js';
export { parseJsonDocument, type JsonProblem } from './json-document.js';
export { buildContractSet, findContract, loadContractSet, type LoadOptions } from './load.js';
export { KNOWN_KEYWORDS } from './meta.js';
export { CONTRACT_MAX_BYTES, type Contract, type ContractSet, type ContractSource } from './model.js';
export { checkPayloadBytes, type PayloadCheck } from './payload.js';
export {
  checkPayloads,
  chooseContract,
  PAYLOAD_MAX_BYTES,
  readPayloadFile,
  type ContractChoice,
  type PayloadResult,
  type PayloadsCheck,
  type PayloadsRequest,
} from './payloads.js';
export { contractRules, type ContractRule } from './rules.js';
export { verifyContractSet } from './verify.js';
export { countWords, keyTerms, markdownIn, sentences, specificWords, words } from './text.js';
