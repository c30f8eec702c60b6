import * as os from 'node:os';

/**
 * Lowers the calling worker thread's priority by `by` (up to 19) so that its work uses what the
 * language server and the extension host leave. On Linux a thread has a nice value of its own, so
 * this lowers that thread alone; elsewhere the call would lower the whole extension host, so it
 * is not made.
 */
export function lowerThreadPriority(by: number): void {
  if (process.platform !== 'linux') return;
  try {
    os.setPriority(Math.min(19, os.getPriority() + by));
  } catch {
    // Not allowed here (a container's policy): the thread runs at the host's priority.
  }
}
