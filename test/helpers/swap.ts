/** Two paths trading places atomically, again and again (test/helpers/swapper.py), for the race attacks. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './paths.js';

/** Starts swapping `a` and `b`; resolves once the first swap happened, with its stop. */
export function swap(a: string, b: string): Promise<() => Promise<void>> {
  const proc: ChildProcess = spawn('python3', [join(ROOT, 'test', 'helpers', 'swapper.py'), a, b], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    proc.once('error', reject);
    proc.stdout?.once('data', () =>
      resolve(
        () =>
          new Promise<void>((done) => {
            proc.once('exit', () => done());
            proc.kill('SIGKILL');
          }),
      ),
    );
  });
}
