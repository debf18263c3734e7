export { isSpecialAddress } from './address.js';
export { authorise, type Authorisation, type AuthoriseOptions, type AuthoriseRequest } from './authorise.js';
export { checkedFs, FLUSH_EVERY, WRITE_PIECE } from './checked-fs.js';
export { isFailure, type CheckedDir, type CheckedFile, type CheckedFs, type FsFailure } from './checked-fs-model.js';
export { evaluateCapability, isPermissionScope, type Evaluation } from './evaluate.js';
export { lookupCommand, type CommandLookup } from '../fs/find-command.js';
export {
  createPolicyGate,
  type ExecCheckOptions,
  type GateOptions,
  type GateScope,
  type GateUse,
  type PolicyDecision,
  type PolicyDenial,
  type PolicyGate,
  type RecordingGate,
} from './gate.js';
export { argumentDenied, globMatch } from './glob.js';
export { grantEntry, grantIn, grantValue, WRITABLE_PROGRAM_HINT } from './grant-hint.js';
export { grantedLabels, grantPermissions, type ExecGrant, type Grant, type GrantedPermissions, type GrantOptions, type NetGrant, type PermissionDenial } from './grant.js';
export { capLimits } from './limits.js';
export { defaultPolicy, POLICY_FILE_NAME, RUN_PATH_DEFAULT } from './default.js';
export { loadPolicy, type LoadPolicyOptions, type PolicyLoad } from './load.js';
export type { ExecRule, HostPolicy, PolicyLimits } from './model.js';
export { kernelDirReason, PATH_MAX_BYTES, pathForm, resolveReal, within, type PathForm } from './paths.js';
export { installPaths, nodePaths, PROTECTED_DIRS, PROTECTED_ENTRY_NAMES, PROTECTED_FILE_NAMES, SECRET_DIRS, protectedReason, runProtectedPaths, type RunPlaces, type WriteUse } from './protected.js';
export { checkSecretPlace } from './secret-place.js';
export { covers, parseScopeValue, pathWithin, type ParsedScopeValue, type ScopeValue } from './scopes.js';
export { hostAddressCheck, type HostAddress, type HostLookup } from './public-host.js';
export { urlForm, type UrlForm } from './url.js';
