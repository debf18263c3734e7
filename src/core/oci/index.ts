export { OCI_CODES } from './codes.js';
export {
  MANIFEST_MAX_BYTES,
  OCI_EMPTY,
  OCI_INDEX,
  OCI_MANIFEST,
  SKILL_ARTIFACT,
  SKILL_BUNDLE,
  SKILL_CONFIG,
  SKILL_SIGNATURE,
  buildArtifact,
  toSkillArtifact,
  toSkillConfig,
  type Descriptor,
  type SkillConfig,
} from './artifact.js';
export { BlobCache } from './cache.js';
export { DEFAULT_CHUNK_BYTES } from './blob-upload.js';
export { Deadline } from './deadline.js';
export { RegistryClient } from './client.js';
export { loadDockerCredentials, NO_CREDENTIALS, type CredentialStore, type Credentials } from './credentials.js';
export { cachedArtifact, cachedHead, fetchArtifact, openArtifact, type CachedHead, type FetchedArtifact, type StreamingArtifact } from './fetch-artifact.js';
export { defaultPullDir, pullSkill, type PullRequest, type PullResult } from './pull.js';
export { pushSkill, type PushRequest, type PushResult } from './push.js';
export { formatOciReference, isLoopback, isOciArgument, manifestRef, parseOciReference, type OciReference } from './reference.js';
export { referrersTag, trustedSigners, type PushedSignature } from './signature.js';
export { type TransportOptions } from './transport.js';
export { remoteDrift } from './drift.js';
export { cachedRunArchive, runDigest, type RunArchive } from './run-target.js';
