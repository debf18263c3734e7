#!/usr/bin/env node
// Publishes N generated capabilities (copies of the personal-trainer `weights` fixture with their
// own ids and tool names) into the registry DIR, for benchmarks.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { publishCapabilities } from '../dist/src/index.js';

const [dir, n = '1000'] = process.argv.slice(2);
if (!dir) {
  console.error('usage: gen-registry.mjs DIR [N]');
  process.exit(2);
}
const src = new URL('../fixtures/registry/capabilities/valid/weights/', import.meta.url);
const read = (f) => readFileSync(new URL(f, src), 'utf8');
const sources = join(dir, 'sources');
const dirs = [];
for (let i = 0; i < Number(n); i++) {
  const id = `cap_${String(i).padStart(4, '0')}`;
  const b = join(sources, id);
  mkdirSync(b, { recursive: true });
  // Tool names are unique registry-wide: prefix each with the capability's id.
  const rename = (text) => text.replaceAll('weight_entry_', `${id}_entry_`);
  const cap = JSON.parse(read('capability.json'));
  cap.capability_id = id;
  cap.name = `Capability ${i}`;
  cap.intent_triggers = [...cap.intent_triggers, `topic ${i}`];
  writeFileSync(join(b, 'capability.json'), JSON.stringify(cap, null, 2));
  writeFileSync(join(b, 'skill.md'), rename(read('skill.md')).replace('capability_id: weights', `capability_id: ${id}`).replace(/^intent_triggers:.*\n/m, ''));
  writeFileSync(join(b, 'tools.json'), rename(read('tools.json')));
  writeFileSync(join(b, 'ui_schemas.json'), rename(read('ui_schemas.json')));
  dirs.push(b);
}
const r = await publishCapabilities(join(dir, 'registry'), dirs, { create: true });
if (!r.published) {
  console.error(r.diagnostics.slice(0, 5));
  process.exit(1);
}
