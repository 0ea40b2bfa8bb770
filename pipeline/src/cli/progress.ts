// Progress for long work: a bar on a terminal, a line every quarter otherwise.
import { SingleBar, Presets } from 'cli-progress';

export function progressReporter(label: string): { onProgress: (done: number, total: number) => void; stop(): void } {
  if (process.stderr.isTTY) {
    const bar = new SingleBar(
      { format: `${label} [{bar}] {value}/{total}`, stream: process.stderr, clearOnComplete: true, hideCursor: true },
      Presets.shades_classic,
    );
    let started = false;
    return {
      onProgress(done, total) {
        if (!started) {
          bar.start(total, 0);
          started = true;
        }
        bar.update(done);
      },
      stop: () => started && bar.stop(),
    };
  }
  let lastQuarter = -1;
  return {
    onProgress(done, total) {
      const q = Math.floor((done / total) * 4);
      if (q !== lastQuarter && total >= 20) {
        lastQuarter = q;
        process.stderr.write(`${label}: ${done}/${total}\n`);
      }
    },
    stop() {},
  };
}
