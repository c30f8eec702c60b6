import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';

/** The nice value of each thread of this process (Linux keeps one per thread; elsewhere none are listed). */
function niceByThread(): Map<string, number> {
  return new Map(
    (process.platform === 'linux' ? fs.readdirSync('/proc/self/task') : []).map((tid) => {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return [tid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    }),
  );
}

/**
 * Runs `start` (which starts a worker thread) and asserts that on Linux exactly one new thread
 * runs `by` nicer than the process, and that the process itself keeps its priority.
 */
export async function assertNewThreadLowered(by: number, start: () => Promise<unknown>): Promise<void> {
  const before = niceByThread();
  const main = os.getPriority();
  await start();
  const lowered = [...niceByThread()].filter(([tid, nice]) => !before.has(tid) && nice === Math.min(19, main + by));
  assert.equal(lowered.length, process.platform === 'linux' ? 1 : 0, `threads: ${JSON.stringify([...niceByThread()])}`);
  assert.equal(os.getPriority(), main, 'the process (the extension host) keeps its priority');
}
