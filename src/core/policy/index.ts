export { covers, parseScopeValue, pathWithin, type ParsedScopeValue, type ScopeValue } from './scopes.js';
