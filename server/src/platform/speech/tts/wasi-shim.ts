// The few WASI preview1 calls the Flite command makes, with an in-memory output directory.
//
// Why not node:wasi: in Node 20 it keeps a pointer to the module's memory from before the module
// grows it, and a garbage collection during the run then makes it write to freed memory — the
// whole process dies with SIGSEGV after a handful of sentences (reproduced here; see
// nodejs/node#52402, reported with this very flite.wasm). This shim reads `memory.buffer` afresh
// on every call, keeps files in memory (no temporary directory) and prints no experimental warning.

const ERRNO = { success: 0, badf: 8, inval: 28, noent: 44, nosys: 52, spipe: 70 } as const;
const FILETYPE = { characterDevice: 2, directory: 3, regularFile: 4 } as const;
const OFLAG_CREATE = 1;
const OFLAG_TRUNCATE = 8;
const ALL_RIGHTS = 2n ** 64n - 1n;
/** The one preopened directory; libc finds it by probing fds from 3 up. */
const DIRECTORY_FD = 3;

/** proc_exit unwinds the WASM stack with this. */
class WasiExit {
  constructor(readonly code: number) {}
}

interface OpenFile {
  name: string;
  position: number;
}

export interface WasiRun {
  exitCode: number;
  /** Files the program wrote into the directory, by name. */
  files: Map<string, Buffer>;
  /** What it printed on standard output (Flite's -psdur segment timings; usually nothing). */
  stdout: string;
}

/** Runs a WASI command module to completion: `args` as argv, one writable directory `directory`. */
export async function runWasiCommand(
  module: WebAssembly.Module,
  args: string[],
  directory: string,
): Promise<WasiRun> {
  let memory: WebAssembly.Memory | null = null;
  const files = new Map<string, Buffer>();
  const stdout: Buffer[] = [];
  const open = new Map<number, OpenFile>();
  let nextFd = DIRECTORY_FD + 1;
  const encodedArgs = args.map((arg) => Buffer.from(`${arg}\0`, 'utf8'));
  const dirName = Buffer.from(directory, 'utf8');

  const view = () => new DataView(memory!.buffer);
  const bytes = (pointer: number, length: number) => new Uint8Array(memory!.buffer, pointer, length);
  const iovecs = (pointer: number, count: number) =>
    Array.from({ length: count }, (_, index) => {
      const at = pointer + index * 8;
      return bytes(view().getUint32(at, true), view().getUint32(at + 4, true));
    });

  const imports = {
    args_sizes_get(countPointer: number, sizePointer: number) {
      view().setUint32(countPointer, encodedArgs.length, true);
      view().setUint32(
        sizePointer,
        encodedArgs.reduce((sum, arg) => sum + arg.length, 0),
        true,
      );
      return ERRNO.success;
    },
    args_get(argvPointer: number, bufferPointer: number) {
      let at = bufferPointer;
      encodedArgs.forEach((arg, index) => {
        view().setUint32(argvPointer + index * 4, at, true);
        bytes(at, arg.length).set(arg);
        at += arg.length;
      });
      return ERRNO.success;
    },
    clock_time_get(_clock: number, _precision: bigint, timePointer: number) {
      view().setBigUint64(timePointer, process.hrtime.bigint(), true);
      return ERRNO.success;
    },
    fd_close(fd: number) {
      return open.delete(fd) || fd <= DIRECTORY_FD ? ERRNO.success : ERRNO.badf;
    },
    fd_fdstat_get(fd: number, pointer: number) {
      const type =
        fd <= 2 ? FILETYPE.characterDevice : fd === DIRECTORY_FD ? FILETYPE.directory : FILETYPE.regularFile;
      if (fd > DIRECTORY_FD && !open.has(fd)) return ERRNO.badf;
      bytes(pointer, 24).fill(0);
      view().setUint8(pointer, type);
      view().setBigUint64(pointer + 8, ALL_RIGHTS, true);
      view().setBigUint64(pointer + 16, ALL_RIGHTS, true);
      return ERRNO.success;
    },
    fd_fdstat_set_flags() {
      return ERRNO.success;
    },
    fd_prestat_get(fd: number, pointer: number) {
      if (fd !== DIRECTORY_FD) return ERRNO.badf;
      view().setUint8(pointer, 0);
      view().setUint32(pointer + 4, dirName.length, true);
      return ERRNO.success;
    },
    fd_prestat_dir_name(fd: number, pointer: number, length: number) {
      if (fd !== DIRECTORY_FD) return ERRNO.badf;
      bytes(pointer, Math.min(length, dirName.length)).set(dirName.subarray(0, length));
      return ERRNO.success;
    },
    fd_read(fd: number, iovs: number, count: number, readPointer: number) {
      const file = open.get(fd);
      if (!file && fd !== 0) return ERRNO.badf;
      let read = 0;
      if (file) {
        const content = files.get(file.name) ?? Buffer.alloc(0);
        for (const target of iovecs(iovs, count)) {
          const chunk = content.subarray(file.position, file.position + target.length);
          target.set(chunk);
          file.position += chunk.length;
          read += chunk.length;
        }
      }
      view().setUint32(readPointer, read, true);
      return ERRNO.success;
    },
    fd_seek(fd: number, offset: bigint, whence: number, resultPointer: number) {
      const file = open.get(fd);
      if (!file) return fd <= 2 ? ERRNO.spipe : ERRNO.badf;
      const size = files.get(file.name)?.length ?? 0;
      const base = whence === 0 ? 0 : whence === 1 ? file.position : size;
      const position = base + Number(offset);
      if (position < 0) return ERRNO.inval;
      file.position = position;
      view().setBigUint64(resultPointer, BigInt(position), true);
      return ERRNO.success;
    },
    fd_write(fd: number, iovs: number, count: number, writtenPointer: number) {
      const chunks = iovecs(iovs, count);
      const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
      const file = open.get(fd);
      if (file) {
        let content = files.get(file.name) ?? Buffer.alloc(0);
        const end = file.position + length;
        if (end > content.length) content = Buffer.concat([content, Buffer.alloc(end - content.length)]);
        for (const chunk of chunks) {
          content.set(chunk, file.position);
          file.position += chunk.length;
        }
        files.set(file.name, content);
      } else if (fd === 1) {
        for (const chunk of chunks) stdout.push(Buffer.from(chunk));
      } else if (fd > 2) {
        return ERRNO.badf;
      } // stderr: dropped.
      view().setUint32(writtenPointer, length, true);
      return ERRNO.success;
    },
    path_open(
      dirFd: number,
      _lookupFlags: number,
      pathPointer: number,
      pathLength: number,
      openFlags: number,
      _rightsBase: bigint,
      _rightsInheriting: bigint,
      _fdFlags: number,
      fdPointer: number,
    ) {
      if (dirFd !== DIRECTORY_FD) return ERRNO.badf;
      const name = Buffer.from(bytes(pathPointer, pathLength)).toString('utf8');
      if (!files.has(name)) {
        if (!(openFlags & OFLAG_CREATE)) return ERRNO.noent;
        files.set(name, Buffer.alloc(0));
      } else if (openFlags & OFLAG_TRUNCATE) {
        files.set(name, Buffer.alloc(0));
      }
      const fd = nextFd++;
      open.set(fd, { name, position: 0 });
      view().setUint32(fdPointer, fd, true);
      return ERRNO.success;
    },
    proc_exit(code: number) {
      throw new WasiExit(code);
    },
  };

  const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: imports });
  memory = instance.exports.memory as WebAssembly.Memory;
  let exitCode = 0;
  try {
    (instance.exports._start as () => void)();
  } catch (error) {
    if (!(error instanceof WasiExit)) throw error;
    exitCode = error.code;
  }
  return { exitCode, files, stdout: Buffer.concat(stdout).toString('utf8') };
}
