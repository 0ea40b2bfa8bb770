// Outcomes committed in small batches: each is committed at most RECORD_WINDOW_MS after its answer (or as soon as
// every sender is waiting on its commit, up to RECORD_BATCH), many per transaction, one transaction at a time.

/** Outcomes are committed at most this long after the answer, up to this many per transaction. */
const RECORD_WINDOW_MS = 20;
const RECORD_BATCH = 200;

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (e: Error) => void;
}

export class CommitBatcher<T> {
  private pending: Waiting<T>[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  /** `senders`: how many send at once (a batch waiting on all of them is committed at once). */
  constructor(
    private readonly commit: (items: T[]) => Promise<void>,
    private readonly senders: number,
  ) {}

  /** Resolves once the item is committed. */
  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      // every sender waiting on its commit (or a full batch): commit now rather than at the end of the window
      if (this.pending.length >= Math.min(RECORD_BATCH, this.senders)) this.flush();
      else this.flushTimer ??= setTimeout(() => this.flush(), RECORD_WINDOW_MS);
    });
  }

  private flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const items = this.pending.splice(0);
    if (items.length === 0) return;
    this.flushing = this.flushing
      .then(() => this.commit(items.map((i) => i.item)))
      .then(
        () => {
          for (const i of items) i.resolve();
        },
        (e: Error) => {
          for (const i of items) i.reject(e);
        },
      );
  }
}
