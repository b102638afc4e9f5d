/**
 * Links waiting on a target not yet recorded (link-graph.ts): for each target id, the source ids
 * of the links to it, as linked lists in typed arrays (8 bytes per waiting link, 8 per URL) instead
 * of an array per target in a Map (about 100 bytes per target and 8 per link, all of it for the
 * garbage collector to trace on every major collection). Freed cells are reused. A link can be
 * marked (the link graph marks nofollow links): its source is kept as `~source`, so the mark costs
 * no memory.
 */

/** Sources remembered per target; beyond it, later sources are not reported. */
export const MAX_PENDING_SOURCES = 10_000;

const NONE = -1;

/** `array`, or a copy at least `size` long (doubling), new cells set to `fill`. */
export function grown(array: Int32Array<ArrayBuffer>, size: number, fill: number): Int32Array<ArrayBuffer> {
  if (size <= array.length) return array;
  const next = new Int32Array(Math.max(size, array.length * 2)).fill(fill);
  next.set(array);
  return next;
}

export class PendingLinks {
  /** Per target: its first waiting cell, or NONE. */
  private head = new Int32Array(1024).fill(NONE);
  /** Per target: how many sources wait on it. */
  private waiting = new Int32Array(1024);
  /** Per cell: the source, and the target's next cell (or, for a free cell, the next free one). */
  private source = new Int32Array(1024);
  private next = new Int32Array(1024);
  private cells = 0;
  private free = NONE;

  /**
   * Remembers a link from `source` to `target`, marked or not, up to MAX_PENDING_SOURCES per
   * target; false when the target already has that many (the link is not remembered).
   */
  add(target: number, source: number, marked = false): boolean {
    this.head = grown(this.head, target + 1, NONE);
    this.waiting = grown(this.waiting, target + 1, 0);
    if (this.waiting[target] >= MAX_PENDING_SOURCES) return false;
    let cell = this.free;
    if (cell !== NONE) this.free = this.next[cell];
    else {
      cell = this.cells++;
      this.source = grown(this.source, this.cells, 0);
      this.next = grown(this.next, this.cells, 0);
    }
    this.source[cell] = marked ? ~source : source;
    this.next[cell] = this.head[target];
    this.head[target] = cell;
    this.waiting[target]++;
    return true;
  }

  /**
   * The links waiting on `target`, in the order they were added, forgotten here: each its source,
   * or `~source` when marked (read them with `sourceOf` and `isMarked`).
   */
  take(target: number): number[] {
    if (target >= this.head.length || this.head[target] === NONE) return [];
    const sources: number[] = [];
    let cell = this.head[target];
    while (cell !== NONE) {
      sources.push(this.source[cell]);
      const after = this.next[cell];
      this.next[cell] = this.free;
      this.free = cell;
      cell = after;
    }
    this.head[target] = NONE;
    this.waiting[target] = 0;
    return sources.reverse();
  }
}

/** The source of an entry of `PendingLinks.take`. */
export function sourceOf(entry: number): number {
  return entry < 0 ? ~entry : entry;
}

/** Whether an entry of `PendingLinks.take` was added marked. */
export function isMarked(entry: number): boolean {
  return entry < 0;
}
