/**
 * Long synchronous work split into slices: `pause()` awaits the next turn of the event loop once the
 * current slice has run `budgetMs`, so that the process keeps answering other requests meanwhile.
 */
export class TimeSlice {
  private started = performance.now();

  constructor(private readonly budgetMs: number) {}

  async pause(): Promise<void> {
    if (performance.now() - this.started < this.budgetMs) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}
