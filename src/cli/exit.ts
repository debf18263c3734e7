// The exit-status table lives in the core, because audit records carry the exit status too.
export { EXIT, exitCodeFor } from '../core/exit.js';
