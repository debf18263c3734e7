// Child process of test/core/oci/upload-memory.test.ts: uploads the file PATH (SIZE bytes) as a
// blob to the registry at HOST the way push sends a layer (uploadBlobFile, no chunk size: one
// streamed PUT), and prints how it went and the process's peak RSS.
//   node upload-large.js HOST PATH SIZE
import { createReadStream } from 'node:fs';
import { hashStream } from '../../src/core/bundle/index.js';
import { NO_CREDENTIALS, parseOciReference, RegistryClient } from '../../src/core/oci/index.js';

const [host = '', path = '', size = '0'] = process.argv.slice(2);
const digest = await hashStream(createReadStream(path));
const client = new RegistryClient(parseOciReference(`oci://${host}/memory/blob:1`), { credentials: NO_CREDENTIALS });
const how = await client.uploadBlobFile(path, Number(size), digest);
process.stdout.write(`${JSON.stringify({ how, digest, there: await client.hasBlob(digest), maxRssKiB: process.resourceUsage().maxRSS })}\n`);
