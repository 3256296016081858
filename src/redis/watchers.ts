/** Listeners of reconnections, and what stops the adapter's own listening. */
export class Watchers {
  readonly listeners = new Set<() => void>();
  readonly stops: Array<() => void> = [];
  fire(): void {
    for (const listener of [...this.listeners]) listener();
  }
  add(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  stop(): void {
    for (const stop of this.stops.splice(0)) stop();
    this.listeners.clear();
  }
}
