/**
 * The contracts of seed 001 that ship with skillctl (schemas/contracts/). They are imported, not
 * read from disk, so they are available wherever skillctl runs; a test checks that this list and
 * the directory agree.
 */
import clickThesis from '../../../schemas/contracts/click_thesis.v1.schema.json' with { type: 'json' };
import ctrInput from '../../../schemas/contracts/ctr.input.v1.schema.json' with { type: 'json' };
import ctrOutput from '../../../schemas/contracts/ctr.output.v1.schema.json' with { type: 'json' };
import evalInput from '../../../schemas/contracts/eval.input.v1.schema.json' with { type: 'json' };
import evalOutput from '../../../schemas/contracts/eval.output.v1.schema.json' with { type: 'json' };
import researchInput from '../../../schemas/contracts/research.input.v1.schema.json' with { type: 'json' };
import researchOutput from '../../../schemas/contracts/research.output.v1.schema.json' with { type: 'json' };
import scriptInput from '../../../schemas/contracts/script.input.v1.schema.json' with { type: 'json' };
import scriptOutput from '../../../schemas/contracts/script.output.v1.schema.json' with { type: 'json' };
import type { ContractSource } from './model.js';

/** Where the built-in contracts' `$id`s live; a `$ref` under it names a built-in contract. */
export const BUILTIN_CONTRACT_BASE = 'https://unpkg.com/skillctl/schemas/contracts/';

const DOCS: readonly { readonly contract: string }[] = [
  researchInput,
  researchOutput,
  clickThesis,
  ctrInput,
  ctrOutput,
  scriptInput,
  scriptOutput,
  evalInput,
  evalOutput,
];

export const BUILTIN_SOURCES: readonly ContractSource[] = DOCS.map((data) => ({
  origin: 'builtin',
  file: `schemas/contracts/${data.contract}.schema.json`,
  // A deep copy: contract objects are shared with ajv and with callers, never with the module cache.
  data: structuredClone(data),
}));
