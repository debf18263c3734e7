/** Agent Skills (SKILL.md) folders for pack, pin and verify-pins tests. */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { fixture } from './paths.js';

/** fixtures/agent-skills/pinnable/pdf-notes: a SKILL.md folder with metadata.version 1.2.0. */
export const PDF_NOTES_DIR = fixture('agent-skills', 'pinnable', 'pdf-notes');
/** The same folder without metadata.version. */
export const UNVERSIONED_DIR = fixture('agent-skills', 'unversioned', 'pdf-notes');

/**
 * Its digests, as docs/formats/digests.md#agent-skills-folders quotes them, and the bytes `pack`
 * writes for it (recorded once; the same on Node 20 and 24).
 */
export const PDF_NOTES = {
  content_digest: 'sha256:4466b11d349ea958e81b5c15771ed09235a150093b124cfd140dfa78e4633531',
  manifest_digest: 'sha256:0cb7f46b686bef35ef65c84cb1d865247e648026ed3ba7e355215a0a328ff050',
  tgz_digest: 'sha256:34871f6021ee46733a73b5fa3e2b2cc4c1cb57ec8148873f1a74b5ca8c8c96ea',
  skill_digest: 'sha256:d0ed3c2a30d1a134404f0a926a0ff3bcdffab4bdd6f9c9599c9ff77270af4874',
} as const;

/** Copies the pdf-notes folder into `<root>/manifests/pdf-notes` (a project's skill folder). */
export async function addPdfNotes(root: string): Promise<string> {
  const dir = join(root, 'manifests', 'pdf-notes');
  await cp(PDF_NOTES_DIR, dir, { recursive: true });
  return dir;
}
