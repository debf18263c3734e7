/**
 * The egress bridge: the skill's side of the egress proxy (proxy.ts). A sandbox has a network
 * namespace of its own, where only loopback exists; the proxy listens on a Unix socket that the
 * sandbox shows at one of EGRESS_SOCKETS. Programs speak HTTP proxying over TCP (HTTP_PROXY), so this small
 * program, run by skillctl's own node inside the sandbox, listens on 127.0.0.1:EGRESS_PORT there,
 * carries each connection to the socket unchanged, and starts the skill's command as its child.
 * It decides nothing: the proxy checks every request, so a skill that kills the bridge or talks to
 * the socket itself gains nothing.
 *
 * It runs from its source text (`node -e`), the same whether skillctl runs from its bundles or
 * from source, so it refers to nothing outside itself: its modules and its own process (not
 * skillctl's) are handed in.
 */
import type * as ChildProcess from 'node:child_process';
import type * as Net from 'node:net';
import type * as Os from 'node:os';

/**
 * Where the proxy's socket may appear inside the sandbox, each in a directory bubblewrap makes
 * afresh (its root, the private /tmp, /dev), with the directory that holds it: the first that no
 * grant puts a host directory over (egressSocketIn). A mount point under a host directory could
 * not be made (read-only) or would be made on the host: a grant of `/run` broke /run/skillctl.
 */
export const EGRESS_SOCKETS: readonly { readonly path: string; readonly fresh: string }[] = [
  { path: '/skillctl-egress.sock', fresh: '/' },
  { path: '/tmp/skillctl-egress.sock', fresh: '/tmp' },
  { path: '/dev/skillctl-egress.sock', fresh: '/dev' },
];
/** Where the run's authority's certificate is shown: beside the socket, in the same fresh directory. */
export function egressCaBeside(socketIn: string): string {
  return socketIn.replace(/\.sock$/, '-ca.pem');
}

/** The bridge's port on the sandbox's own loopback (nothing else listens there). */
export const EGRESS_PORT = 3128;

/**
 * argv: the socket, the port, the authority's certificate (empty when the proxy passes HTTPS on
 * unread), `--`, then the command. The bridge starts without NODE_OPTIONS
 * (bubblewrap unsets them), so that nothing the environment names runs in it; the command gets
 * them back from SAVED_NODE_OPTIONS. Exits as the command does; killed by a signal, 128 + its
 * number, as bubblewrap reports it.
 */
export function egressBridge(load: (id: string) => unknown, argv: readonly string[], proc: Pick<NodeJS.Process, 'env' | 'exit' | 'stderr'>): void {
  const net = load('node:net') as typeof Net;
  const cp = load('node:child_process') as typeof ChildProcess;
  const os = load('node:os') as typeof Os;
  const [socket, port, ca, , program, ...args] = argv as [string, string, string, string, string, ...string[]];
  // The proxy takes a connection only after this line (proxy.ts says why), and answers one byte.
  const token = proc.env.SKILLCTL_EGRESS_TOKEN ?? '';
  const server = net.createServer((client) => {
    client.pause();
    const upstream = net.connect(socket);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    upstream.write(`${token}\n`);
    // Closed before its answer (the proxy at its connection limit): the program sees it closed
    // too, rather than wait on a connection nothing will carry.
    const early = (): void => void client.destroy();
    upstream.once('close', early);
    upstream.once('data', (ack: Buffer) => {
      upstream.removeListener('close', early);
      if (ack.length > 1) client.write(ack.subarray(1));
      client.pipe(upstream).pipe(client);
    });
  });
  server.on('error', (err) => {
    proc.stderr.write(`skillctl egress bridge: ${err.message}\n`);
    proc.exit(125);
  });
  server.listen(Number(port), '127.0.0.1', () => {
    const env = { ...proc.env };
    const saved = env.SKILLCTL_SAVED_NODE_OPTIONS;
    delete env.SKILLCTL_SAVED_NODE_OPTIONS;
    delete env.SKILLCTL_EGRESS_TOKEN;
    if (saved !== undefined) env.NODE_OPTIONS = saved;
    // The proxy reads HTTPS: the run's authority is the only trust store, for OpenSSL (python's
    // ssl, curl, git, Go), requests, curl and node (which adds it to its own). Every HTTPS
    // connection of the sandbox goes through the proxy, which verifies the real certificate.
    if (ca !== '') for (const name of ['SSL_CERT_FILE', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE', 'NODE_EXTRA_CA_CERTS']) env[name] = ca;
    const child = cp.spawn(program, args, { stdio: 'inherit', env });
    child.on('error', (err) => {
      proc.stderr.write(`skillctl egress bridge: ${program}: ${err.message}\n`);
      proc.exit(127);
    });
    child.on('exit', (code, signal) => proc.exit(code ?? 128 + (signal !== null ? (os.constants.signals[signal] ?? 0) : 0)));
  });
}

/** The bridge's source text, for `node -e` (argv after `--`). */
export const BRIDGE_SOURCE = `(${egressBridge.toString()})(process.getBuiltinModule, process.argv.slice(1), process);`;

/**
 * The environment of a program started under the bridge: its own, with the proxy variables in
 * both spellings programs read, and its NODE_OPTIONS saved for the bridge to give back.
 */
export function egressEnv(env: Readonly<Record<string, string>>, token: string): Record<string, string> {
  const url = `http://127.0.0.1:${EGRESS_PORT}`;
  return {
    ...env,
    // For the bridge alone: it takes it out of the command's environment.
    SKILLCTL_EGRESS_TOKEN: token,
    ...(env.NODE_OPTIONS !== undefined ? { SKILLCTL_SAVED_NODE_OPTIONS: env.NODE_OPTIONS } : {}),
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    // Node 22.21+ and 24 send fetch and http(s) requests through the variables above with this set.
    NODE_USE_ENV_PROXY: '1',
  };
}
