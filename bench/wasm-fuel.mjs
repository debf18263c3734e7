// One run of a wasm bundle through the library, metered (`on`: a budget no run reaches, so the
// charges run but never stop it) or not (`off`): what metering costs, without the CLI around it.
import { defaultPolicy } from '../dist/src/core/policy/index.js';
import { runSkill } from '../dist/src/core/run/index.js';

const [target, mode] = process.argv.slice(2);
const r = await runSkill(
  { target },
  {
    cwd: process.cwd(),
    env: { PATH: '/usr/bin:/bin' },
    policy: defaultPolicy(process.cwd()),
    clock: { now: () => 0, monotonic: () => performance.now() },
    builtins: async () => undefined,
    skillctlVersion: 'bench',
    wasmFuel: mode === 'on' ? 1e15 : null,
  },
);
if (r.status !== 'ok') {
  console.error(JSON.stringify(r.diagnostics));
  process.exit(1);
}
