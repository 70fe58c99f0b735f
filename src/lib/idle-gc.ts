/**
 * V8 collects garbage when JavaScript allocates, not when a process goes quiet: after a burst of
 * requests an idle server keeps the heap the burst grew (hundreds of MB of garbage) until the next
 * burst. This collector runs one full collection once the server has been idle for `idleMs` after
 * handling requests, so its memory returns to the baseline between bursts. It needs `global.gc`
 * (`node --expose-gc`, as `npm start` runs the server); without it, it does nothing.
 */
export interface IdleCollector {
  /** Call on every request. */
  touch(): void;
  stop(): void;
}

const SECOND_COLLECTION_MS = 1000;

export function startIdleCollector(options: { idleMs: number; gc?: () => void; onCollect?: (durationMs: number) => void }): IdleCollector {
  const gc = options.gc ?? (globalThis as { gc?: () => void }).gc;
  let timer: NodeJS.Timeout | undefined;
  const collect = () => {
    timer = undefined;
    const started = performance.now();
    gc!();
    options.onCollect?.(performance.now() - started);
    // Pages emptied by that collection are swept concurrently and only given back at the next one.
    setTimeout(() => {
      if (!timer) gc!();
    }, SECOND_COLLECTION_MS).unref();
  };
  return {
    touch() {
      if (!gc) return;
      // Restarted by every request: the collection runs only after `idleMs` without any.
      if (timer) timer.refresh();
      else {
        timer = setTimeout(collect, options.idleMs);
        timer.unref();
      }
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
