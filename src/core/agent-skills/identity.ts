/**
 * Who an Agent Skills folder is, for pack, pin and verify-pins. The specification gives a folder
 * a `name` but no version and no digest; a lock needs an identity that never changes content.
 * skillctl takes the identity from the frontmatter (`name`, and `metadata.version`, a semantic
 * version) and derives the digest that signatures cover from a small manifest it builds for the
 * folder (docs/formats/digests.md#agent-skills-folders):
 *
 *   {"content_digest": …, "kind": "agent-skill", "skill_id": <name>, "skill_version": <version>}
 *
 * Its sha256 over RFC 8785 JSON plays the part `manifest_digest` plays for a bundle: it covers the
 * identity and, through `content_digest`, every file of the folder but signatures.json. `kind`
 * keeps it from ever equalling the manifest_digest of a skill.contract.v1 manifest.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { jcsDigest, type Sha256Digest } from '../digest/index.js';
import { SKILL_ID_PATTERN, SKILL_VERSION_PATTERN } from '../manifest/index.js';
import type { AgentSkillProperties } from './model.js';
import type { AgentSkillValidation } from './validate.js';

/** The `kind` of an Agent Skills folder's lock entry and derived manifest. */
export const AGENT_SKILL_KIND = 'agent-skill';

export interface AgentSkillIdentity {
  /** The frontmatter `name`. */
  readonly skill_id: string;
  /** `metadata.version`. */
  readonly skill_version: string;
  readonly content_digest: Sha256Digest;
  /** sha256 of the RFC 8785 JSON of the derived manifest: what signatures cover. */
  readonly manifest_digest: Sha256Digest;
}

/** The digest of the manifest skillctl derives for an Agent Skills folder. */
export function agentSkillManifestDigest(name: string, version: string, contentDigest: Sha256Digest): Sha256Digest {
  return jcsDigest({ content_digest: contentDigest, kind: AGENT_SKILL_KIND, skill_id: name, skill_version: version });
}

/** `metadata.version` as written, when metadata maps `version` to a scalar. */
export function agentSkillVersion(props: AgentSkillProperties | undefined): string | undefined {
  return props?.metadata?.version;
}

/**
 * The identity of a validated folder, or the finding that it has none usable: a lock entry and an
 * archive name need a semantic `metadata.version`. `file` names SKILL.md in that finding.
 */
export function agentSkillIdentity(v: AgentSkillValidation): { identity?: AgentSkillIdentity; diagnostics: Diagnostic[] } {
  const props = v.properties;
  if (!v.valid || props === undefined || v.contentDigest === undefined) return { diagnostics: [] };
  const version = agentSkillVersion(props);
  const at = { file: v.file, pointer: version === undefined ? '/metadata' : '/metadata/version' };
  const position = v.document?.locate(at.pointer);
  if (version === undefined || !SKILL_VERSION_PATTERN.test(version)) {
    return {
      diagnostics: [
        diag(
          'AGENT_SKILL_VERSION_REQUIRED',
          version === undefined ? 'metadata.version is missing: pinning and packing need a version' : `metadata.version ${JSON.stringify(version)} is not a semantic version`,
          {
            ...at,
            ...(position !== undefined ? { line: position.line, column: position.column } : {}),
            hint: 'add `metadata:` with `version: "1.0.0"` (quoted) to the frontmatter; raise it whenever the folder changes',
          },
        ),
      ],
    };
  }
  // Validation with the ASCII name set guarantees this; a Unicode name cannot be a lock identity.
  if (!SKILL_ID_PATTERN.test(props.name)) {
    return {
      diagnostics: [diag('AGENT_SKILL_NAME_CHARSET', `the name ${JSON.stringify(props.name)} cannot name a pin or an archive: use a-z, 0-9 and -`, { file: v.file, pointer: '/name' })],
    };
  }
  return {
    identity: {
      skill_id: props.name,
      skill_version: version,
      content_digest: v.contentDigest,
      manifest_digest: agentSkillManifestDigest(props.name, version, v.contentDigest),
    },
    diagnostics: [],
  };
}
