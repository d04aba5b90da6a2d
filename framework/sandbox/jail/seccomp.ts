/**
 * The jail's one system-call filter (bwrap --seccomp): no kernel keyrings. A user's keyring is the
 * kernel's, not a namespace's: where submissions run as one sandbox user (a root grader), a key
 * one program adds (add_key) another reads (keyctl), across cases, jails and submissions alike —
 * measured here: a key added in one jail read back in the next. Nothing a program needs uses them,
 * so add_key, request_key and keyctl fail with EPERM. System calls of another ABI than the
 * machine's (x86_64's 32-bit and x32 entries) fail too, so that the filter cannot be gone round.
 *
 * The filter is classic BPF, a few instructions generated here for the machine's architecture, which
 * the grader writes into a pipe bwrap reads it from (command.ts: jailStdio, sendFilter).
 */

/** The architectures filtered, with their audit id and the keyring calls' numbers. */
const ARCHES: Partial<Record<NodeJS.Architecture, { audit: number; calls: number[]; x32?: boolean }>> = {
  x64: { audit: 0xc000003e, calls: [248, 249, 250], x32: true },
  arm64: { audit: 0xc00000b7, calls: [217, 218, 219] },
};

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_RET_K = 0x06;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EPERM = 1;
/** struct seccomp_data: the system call's number at 0, its architecture at 4 */
const NR = 0;
const ARCH = 4;
const X32_BIT = 0x40000000;

/** The filter's instructions (struct sock_filter, 8 bytes each) for `arch`, or undefined where none is known. */
export function keyringFilter(arch: NodeJS.Architecture = process.arch): Buffer | undefined {
  const a = ARCHES[arch];
  if (a === undefined) return undefined;
  // Each instruction: [code, jump if true, jump if false, k]; jumps count the instructions skipped.
  const program: [number, number, number, number][] = [];
  const body: ({ code: number; k: number; toDeny?: 'true' | 'false' } | { ret: number })[] = [
    { code: BPF_LD_W_ABS, k: ARCH },
    { code: BPF_JEQ_K, k: a.audit, toDeny: 'false' },
    { code: BPF_LD_W_ABS, k: NR },
    ...(a.x32 === true ? [{ code: BPF_JGE_K, k: X32_BIT, toDeny: 'true' as const }] : []),
    ...a.calls.map((k) => ({ code: BPF_JEQ_K, k, toDeny: 'true' as const })),
    { ret: SECCOMP_RET_ALLOW },
    { ret: SECCOMP_RET_ERRNO | EPERM },
  ];
  const denyAt = body.length - 1;
  body.forEach((ins, i) => {
    if ('ret' in ins) program.push([BPF_RET_K, 0, 0, ins.ret]);
    else {
      const skip = denyAt - i - 1;
      program.push([ins.code, ins.toDeny === 'true' ? skip : 0, ins.toDeny === 'false' ? skip : 0, ins.k]);
    }
  });
  const out = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], i) => {
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}
