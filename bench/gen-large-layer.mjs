#!/usr/bin/env node
// Writes OUT, a .tgz of an Agent Skills folder (SKILL.md named NAME) holding MIB MiB of
// incompressible data in 64 MiB files, gzip level LEVEL (default 0: stored, so the layer is as
// large as its content): the large layer of bench/oci-memory.sh.
//   node bench/gen-large-layer.mjs OUT NAME MIB [LEVEL]
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { largeTgz } from '../dist/test/helpers/large-tgz.js';

const [out, name, mib = '1024', level = '0'] = process.argv.slice(2);
if (!out || !name) {
  console.error('usage: gen-large-layer.mjs OUT NAME MIB [LEVEL]');
  process.exit(2);
}
const skillMd = `---\nname: ${name}\ndescription: A large skill for the OCI memory benchmark.\nmetadata:\n  version: "1.0.0"\n---\n\nData only.\n`;
await pipeline(largeTgz(Math.ceil(Number(mib) / 64), 64, new Map([['SKILL.md', skillMd]]), Number(level)), createWriteStream(out));
