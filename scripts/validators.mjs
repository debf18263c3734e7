// Every JSON Schema that skillctl checks documents against. Each is compiled at build time into
// a standalone validator module `src/generated/<name>.validator.ts`, exporting `validate`.
// `schema` is a path under schemas/, or a well-known meta-schema id.
export const VALIDATORS = [
  { name: 'skill-contract-v1', schema: 'schemas/skill.contract.v1.schema.json' },
  { name: 'policy-v1', schema: 'schemas/policy.v1.schema.json' },
  { name: 'contract', schema: 'schemas/contract.schema.json' },
  { name: 'skill-pack-v1', schema: 'schemas/skill.pack.v1.schema.json' },
  { name: 'capability-v1', schema: 'schemas/capability.v1.schema.json' },
  { name: 'capability-tools-v1', schema: 'schemas/capability-tools.v1.schema.json' },
  { name: 'capability-ui-schemas-v1', schema: 'schemas/capability-ui-schemas.v1.schema.json' },
  { name: 'registry-index-v1', schema: 'schemas/registry-index.v1.schema.json' },
  { name: 'skillctl-lock-v1', schema: 'schemas/skillctl.lock.v1.schema.json' },
  { name: 'provenact-lock', schema: 'schemas/provenact.lock.schema.json' },
  { name: 'meta-2020-12', meta: 'https://json-schema.org/draft/2020-12/schema' },
  { name: 'meta-draft-07', meta: 'http://json-schema.org/draft-07/schema' },
];
