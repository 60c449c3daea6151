import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { OperatorError } from '../errors/operator-error.js';

/** The largest venue data file `spa import` reads (README "Operator CLI"): far above a real chain's. */
export const MAX_IMPORT_FILE_BYTES = 32 * 1024 * 1024;

/**
 * The text of a file to import, read only when it is a regular file of at most MAX_IMPORT_FILE_BYTES. The server
 * runs forwarded commands in its own process (operator-socket.ts): `/dev/zero` would fill its memory and a FIFO
 * would block its event loop on open. Opened non-blocking (a FIFO opens at once) and judged by fstat of the open
 * descriptor, so a path swapped after a check cannot slip through; read to the limit, never past it.
 */
export function readImportFile(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw refusal(path, (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : messageOf(error));
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw refusal(path, `it is ${kindOf(stats)}, not a regular file`);
    if (stats.size > MAX_IMPORT_FILE_BYTES) throw tooLarge(path, stats.size);
    const buffer = Buffer.alloc(Math.min(stats.size + 1, MAX_IMPORT_FILE_BYTES + 1));
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read)
      read = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > MAX_IMPORT_FILE_BYTES) throw tooLarge(path, length); // it grew while being read
    return buffer.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
}

const refusal = (path: string, reason: string) => new OperatorError(`Cannot read ${path} as JSON: ${reason}`);

const tooLarge = (path: string, size: number) =>
  refusal(
    path,
    `it has ${size} bytes; a venue data file may have at most ${MAX_IMPORT_FILE_BYTES} (${MAX_IMPORT_FILE_BYTES / 1024 / 1024} MiB)`,
  );

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a file';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
