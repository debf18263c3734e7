/**
 * A value of the right type for each manifest field, as a skill.yaml would write it: the hint of a
 * type finding shows it, so the hint is the fix (`skill_version must be a string such as "1.0.0";
 * quote it`) rather than the schema's description.
 */
const EXAMPLES: Readonly<Record<string, string>> = {
  skill_contract_version: '"skill.contract.v1"',
  skill_id: '"fs.read_text"',
  skill_version: '"1.0.0"',
  description: '"Reads a text file."',
  manifest_digest: '"sha256:<64 hex>"',
  content_digest: '"sha256:<64 hex>"',
  entrypoints: '[{entrypoint_id: main, ...}]',
  entrypoint_id: '"main"',
  runtime_version: '"20.19.0"',
  command: '"node main.js" or [node, main.js]',
  working_directory: '"."',
  runtime_limits: '{max_execution_time: 10}',
  max_execution_time: '10 or "30s"',
  max_memory: '256 or "1GiB"',
  max_output_bytes: '65536 or "64KiB"',
  input_schema: '{type: object}',
  output_schema: '{type: object}',
  error_schema: '{type: object}',
  args_fingerprint_fields: '[input.path]',
  result_fingerprint_fields: '[result.text]',
  side_effect_fingerprint_fields: '[input.path]',
  side_effect_categories: '[filesystem.write]',
  requested_permissions: '{fs.read: [.]}',
  required_permissions: '{fs.read: [.]}',
  tool_profile_id: '"fs.read_text"',
  tool_profile_version: '"1.0.0"',
  required_environment_variables: '[HOME]',
  execution_context: '{locale: C.UTF-8, timezone: UTC}',
  locale: '"C.UTF-8"',
  timezone: '"UTC"',
  encoding: '"utf-8"',
};

/** An example value for the field at `pointer` (by its name), if there is one. */
export function fieldExample(pointer: string): string | undefined {
  const name = pointer.slice(pointer.lastIndexOf('/') + 1);
  return Object.hasOwn(EXAMPLES, name) ? EXAMPLES[name] : undefined;
}
