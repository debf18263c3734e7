/**
 * The proxy's socket as bubblewrap mounts it: by a descriptor, not by its path. The socket lives
 * in the temporary directory, which another run's policy may let its skills write; a skill there
 * (the same user: the directory's 0700 keeps out only other users) could rename it and put its
 * own socket at the path before this run's bubblewrap binds it, and so hear this run's requests
 * and token. A descriptor opened with O_PATH names the inode, whatever the path holds later
 * (`bwrap --ro-bind-fd`). What it names is checked once: a connection through it must reach this
 * very proxy, which sees the one-time probe line no other listener could report to it.
 */
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import type * as Net from 'node:net';

/**
 * O_PATH and O_NOFOLLOW as Linux numbers them on x86-64 and arm64 (node's fs.constants has no
 * O_PATH). bubblewrap, which alone uses the descriptor, runs on Linux only.
 */
const O_PATH = 0o10000000;
const O_NOFOLLOW = 0o400000;

/** How long the probe may take to reach the proxy: a local connection, so long means never. */
const PROBE_WAIT_MS = 5_000;

/**
 * Opens `socketPath` as a path descriptor and checks that it is the socket the proxy listens on:
 * `probe` is written through the descriptor (/proc/self/fd/N), and `seen` must settle as the
 * proxy reads it. Anything else there (a file, a link, another listener, nothing) is refused and
 * the descriptor closed.
 */
export async function pinSocket(net: typeof Net, socketPath: string, probe: Buffer, seen: Promise<void>): Promise<FileHandle> {
  const handle = await open(socketPath, O_PATH | O_NOFOLLOW);
  try {
    if (!(await handle.stat()).isSocket()) throw new Error(`${socketPath} is not a socket`);
    await new Promise<void>((resolve, reject) => {
      const refuse = (why: string): void => {
        clearTimeout(timer);
        conn.destroy();
        reject(new Error(`${socketPath} is not this run's proxy socket (${why}): something replaced it`));
      };
      const timer = setTimeout(() => refuse('the probe never reached the proxy'), PROBE_WAIT_MS);
      let reached = false;
      const conn = net.connect(`/proc/self/fd/${handle.fd}`);
      conn.on('error', (err) => refuse(err.message));
      conn.on('connect', () => conn.write(probe));
      // Whatever another listener says is read and dropped, so that its close is seen.
      conn.resume();
      // The proxy reports the probe before it closes the connection: closed first, it was another.
      conn.on('close', () => reached || refuse('it closed the probe unheard'));
      void seen.then(() => {
        reached = true;
        clearTimeout(timer);
        conn.destroy();
        resolve();
      });
    });
    return handle;
  } catch (err) {
    await handle.close();
    throw err;
  }
}
