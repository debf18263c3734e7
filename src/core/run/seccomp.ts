/**
 * The seccomp filter bubblewrap installs in every sandbox (`--seccomp`): it refuses the system
 * calls that make memory no file and no process is charged for. Without a cgroup (a user who is
 * not root, on most hosts), max_memory is an address-space rlimit per process, and the tmpfs
 * mounts are sized (bwrap-args.ts); but a `memfd_create` file filled with write(), System V
 * shared memory segments attached, filled and detached in turn (`shmget`), and System V message
 * queues (`msgget`, 16 KiB each, 32,000 of them in a fresh IPC namespace) count against neither:
 * a python process capped at 64 MiB held 512 MiB that way until its run ended. POSIX shared
 * memory and message queues stay: /dev/shm is a sized tmpfs, and mq_open is bounded by
 * RLIMIT_MSGQUEUE.
 *
 * The kernel's keyrings too (`add_key`, `request_key`, `keyctl`): a process's session keyring
 * is kept across fork, exec and every namespace bubblewrap makes, so a skill started from a login
 * session (pam_keyinit gives each one its own) read the keys stored there (a token put with
 * `keyctl add user … @s`, a Kerberos ticket cache `KEYRING:session:…`) and added or replaced keys
 * that the user's later commands in the session read. Keyrings are not namespaced; container
 * runtimes refuse the same calls by default.
 *
 * The calls fail with ENOSYS, not EPERM: "not there" is what makes a program take its
 * fallback (libffi and .NET try memfd_create, then a file in /tmp or /dev/shm, which are sized),
 * where EPERM often ends it (container runtimes moved clone3 to ENOSYS for the same reason).
 *
 * A classic BPF program, written here: it is 20-odd instructions, and libseccomp would be a
 * native dependency. Every ABI a process of the machine can make calls in is covered, each with
 * its own numbers (an i386 program on x86-64 calls memfd_create as 356, through int 0x80; an
 * x32 one as 0x40000000 + 319): a filter that knew only the native numbers would let a 32-bit
 * program make the same call. An ABI the filter does not know is refused whole.
 */
import { endianness } from 'node:os';

/** seccomp_data: the call's number at offset 0, its ABI (AUDIT_ARCH_*) at offset 4. */
const NR = 0;
const ARCH = 4;

const LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const RET_K = 0x06; // BPF_RET | BPF_K

const RET_ALLOW = 0x7fff0000;
const ENOSYS = 38;
const RET_ENOSYS = 0x00050000 | ENOSYS; // SECCOMP_RET_ERRNO

/** The x32 ABI's calls are the x86-64 numbers with this bit set, under AUDIT_ARCH_X86_64. */
const X32 = 0x40000000;

/** One ABI: its AUDIT_ARCH_* value and the numbers of the calls refused in it. */
export interface Abi {
  readonly name: string;
  readonly arch: number;
  readonly refused: readonly number[];
}

// Numbers from each architecture's syscall table: memfd_create, memfd_secret, shmget, msgget
// (and, where System V IPC goes through one multiplexed call, ipc); then add_key, request_key
// and keyctl.
const X86_64: Abi = { name: 'x86_64', arch: 0xc000003e, refused: [319, 447, 29, 68, 248, 249, 250].flatMap((n) => [n, X32 | n]) };
const I386: Abi = { name: 'i386', arch: 0x40000003, refused: [356, 447, 395, 399, 117, 286, 287, 288] };
const AARCH64: Abi = { name: 'aarch64', arch: 0xc00000b7, refused: [279, 447, 194, 186, 217, 218, 219] };
const ARM: Abi = { name: 'arm', arch: 0x40000028, refused: [385, 447, 307, 303, 309, 310, 311] };

/** The ABIs a process on a machine of `arch` (process.arch) can make calls in. */
export const ABIS: Readonly<Record<string, readonly Abi[]>> = { x64: [X86_64, I386], arm64: [AARCH64, ARM] };

interface Insn {
  readonly code: number;
  readonly jt: number;
  readonly jf: number;
  readonly k: number;
}

/**
 * The program for `abis`: for each ABI, a test of the arch, then one test per refused number
 * (a match jumps to the refusal at the end), then allow. Any other ABI is refused.
 */
export function filterProgram(abis: readonly Abi[]): Insn[] {
  const out: Insn[] = [{ code: LD_W_ABS, jt: 0, jf: 0, k: ARCH }];
  // Built from the end: each block's jumps are relative to where it lands.
  const blocks = abis.map((abi) => [{ code: LD_W_ABS, jt: 0, jf: 0, k: NR }, ...abi.refused.map((k) => ({ code: JEQ_K, jt: 0, jf: 0, k })), { code: RET_K, jt: 0, jf: 0, k: RET_ALLOW }]);
  const total = 1 + abis.length + blocks.reduce((n, b) => n + b.length, 0) + 1;
  const refuse = total - 1;
  // Arch tests first, in a row: test i jumps to its block when it matches.
  let at = 1 + abis.length;
  const starts = blocks.map((b) => {
    const s = at;
    at += b.length;
    return s;
  });
  abis.forEach((abi, i) => {
    const here = 1 + i;
    // The last test falls through to the refusal of unknown ABIs when it does not match.
    out.push({ code: JEQ_K, jt: jump(here, starts[i] as number), jf: i === abis.length - 1 ? jump(here, refuse) : 0, k: abi.arch });
  });
  blocks.forEach((b, i) => {
    b.forEach((insn, j) => {
      const here = (starts[i] as number) + j;
      out.push(insn.code === JEQ_K ? { ...insn, jt: jump(here, refuse) } : insn);
    });
  });
  out.push({ code: RET_K, jt: 0, jf: 0, k: RET_ENOSYS });
  return out;
}

/** A conditional jump's offset from `from` to `to` (relative to the next instruction; 8 bits). */
function jump(from: number, to: number): number {
  const off = to - from - 1;
  if (off < 0 || off > 255) throw new RangeError(`a seccomp jump of ${off} does not fit`);
  return off;
}

/** The program as struct sock_filter[] in the machine's byte order, as the kernel takes it. */
export function encodeProgram(program: readonly Insn[], order: 'LE' | 'BE' = endianness()): Uint8Array {
  const buf = Buffer.alloc(program.length * 8);
  program.forEach((insn, i) => {
    const o = i * 8;
    if (order === 'LE') {
      buf.writeUInt16LE(insn.code, o);
      buf.writeUInt32LE(insn.k >>> 0, o + 4);
    } else {
      buf.writeUInt16BE(insn.code, o);
      buf.writeUInt32BE(insn.k >>> 0, o + 4);
    }
    buf.writeUInt8(insn.jt, o + 2);
    buf.writeUInt8(insn.jf, o + 3);
  });
  return buf;
}

/** The filter for this machine, or undefined where skillctl knows no ABI's numbers (then none is installed). */
export function sandboxFilter(arch: string = process.arch): Uint8Array | undefined {
  const abis = ABIS[arch];
  return abis === undefined ? undefined : encodeProgram(filterProgram(abis));
}
