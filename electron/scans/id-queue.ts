// A FIFO of record ids with O(1) push at both ends and shift. The queue holds
// ids only; a record is read from history when its turn comes.

export class IdQueue {
  private items: string[] = [];
  private head = 0;
  private readonly front: string[] = [];

  get size(): number {
    return this.items.length - this.head + this.front.length;
  }

  push(id: string): void {
    this.items.push(id);
  }

  /** Put an id ahead of everything else (a retry keeps its place in line). */
  pushFront(id: string): void {
    this.front.push(id);
  }

  shift(): string | undefined {
    if (this.front.length > 0) return this.front.pop();
    if (this.head >= this.items.length) return undefined;
    const id = this.items[this.head++];
    // Compact once the consumed prefix dominates, so memory follows the live size.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return id;
  }

  *[Symbol.iterator](): IterableIterator<string> {
    for (let i = this.front.length - 1; i >= 0; i--) yield this.front[i]!;
    for (let i = this.head; i < this.items.length; i++) yield this.items[i]!;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
    this.front.length = 0;
  }
}
