// Child process of test/core/oci/upload-memory.test.ts: uploads the file PATH (SIZE bytes) as a
// blob to the registry at HOST the way push sends a layer (uploadBlobFile, no chunk size: one
// streamed PATCH, then the commit), and prints how it went and the process's peak RSS. The blob's DIGEST is given,
// so that the peak is the upload's, not that of hashing the file first.
//   node upload-large.js HOST PATH SIZE DIGEST
import type { Sha256Digest } from '../../src/core/digest/index.js';
import { NO_CREDENTIALS, parseOciReference, RegistryClient } from '../../src/core/oci/index.js';

const [host = '', path = '', size = '0', given = ''] = process.argv.slice(2);
const digest = given as Sha256Digest;
const client = new RegistryClient(parseOciReference(`oci://${host}/memory/blob:1`), { credentials: NO_CREDENTIALS });
const how = await client.uploadBlobFile(path, Number(size), digest);
process.stdout.write(`${JSON.stringify({ how, digest, there: await client.hasBlob(digest), maxRssKiB: process.resourceUsage().maxRSS })}\n`);
