/**
 * A table of short strings on disk, for what a migration looks up row by row while it runs (source → target IDs,
 * the match keys already seen) at any number of rows in flat memory. Keys and values have a fixed most bytes
 * (UTF-8); they sit in 4 KB buckets of a file in a folder the caller owns, found by hash. The buckets used last
 * stay in memory up to a budget; the others are read and written in place with positioned synchronous I/O (a
 * bucket the system still caches costs microseconds, and a row's lookups need no turn of the event loop). When
 * the table fills, it doubles in one sequential pass: every bucket splits into two of the new file. A slot's
 * first byte is 0 when free, else a tag of its key's hash (1–255): a probe compares keys only when tags agree.
 */
import { randomInt } from "node:crypto";
import { closeSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import path from "node:path";

const BUCKET_BYTES = 4096;
/** The share of slots in use past which the table doubles. */
const MOST_FULL = 0.75;
/** Buckets read and written at a time while doubling. */
const SPLIT_BLOCK = 64;

interface Bucket {
  bytes: Buffer;
  dirty: boolean;
}

export class DiskTable {
  private fd: number;
  private file: string;
  private generation = 0;
  private buckets = 16;
  private count = 0;
  private readonly slotBytes: number;
  private readonly slots: number;
  /** The buckets in memory, least recently used first. */
  private readonly cached = new Map<number, Bucket>();
  private readonly mostCached: number;
  private readonly key: Buffer;
  /** Keys are hashed from a seed of this table's own: no set of keys made in advance can pile into one bucket. */
  private readonly seed = randomInt(2 ** 32 - 1);

  /**
   * @param folder where the table's file is made (the caller removes the folder; `close` removes the file)
   * @param keyBytes, valueBytes the most UTF-8 bytes of a key and of a value (0 for a set)
   * @param cacheBytes the memory its buckets may take
   */
  constructor(
    private readonly folder: string,
    private readonly name: string,
    private readonly keyBytes: number,
    private readonly valueBytes: number,
    cacheBytes = 4 * 1024 * 1024,
  ) {
    this.slotBytes = 1 + keyBytes + valueBytes;
    this.slots = Math.floor(BUCKET_BYTES / this.slotBytes);
    this.mostCached = Math.max(2, Math.floor(cacheBytes / BUCKET_BYTES));
    this.key = Buffer.alloc(keyBytes);
    this.file = this.fileOf(0);
    this.fd = openSync(this.file, "w+", 0o600);
  }

  get size(): number {
    return this.count;
  }

  get(key: string): string | undefined {
    const at = this.find(key);
    if (!at || !at.found) return undefined;
    const start = at.offset + 1 + this.keyBytes;
    const end = at.bucket.bytes.indexOf(0, start);
    return at.bucket.bytes.toString("utf8", start, end === -1 || end > start + this.valueBytes ? start + this.valueBytes : end);
  }

  has(key: string): boolean {
    return !!this.find(key)?.found;
  }

  /** Sets the key's value (a set's member, with no value). */
  set(key: string, value = ""): void {
    if (Buffer.byteLength(value) > this.valueBytes) throw new RangeError(`${this.name}: '${value.slice(0, 40)}' is longer than ${this.valueBytes} bytes`);
    let at = this.find(key);
    while (!at) {
      this.double();
      at = this.find(key);
    }
    const { bucket, offset } = at;
    if (!at.found) {
      bucket.bytes[offset] = at.tag;
      this.key.copy(bucket.bytes, offset + 1);
      this.count++;
    }
    bucket.bytes.fill(0, offset + 1 + this.keyBytes, offset + this.slotBytes);
    bucket.bytes.write(value, offset + 1 + this.keyBytes, "utf8");
    bucket.dirty = true;
    if (this.count > this.buckets * this.slots * MOST_FULL) this.double();
  }

  /** Closes the table and removes its file. */
  close(): void {
    this.cached.clear();
    closeSync(this.fd);
    rmSync(this.file, { force: true });
  }

  private fileOf(generation: number): string {
    return path.join(this.folder, `${this.name.replace(/[^\w-]/g, "_")}.${generation}.table`);
  }

  /** The key's slot (found), or the free slot it would take; undefined when its bucket is full. */
  private find(key: string): { bucket: Bucket; offset: number; found: boolean; tag: number } | undefined {
    if (Buffer.byteLength(key) > this.keyBytes) throw new RangeError(`${this.name}: '${key.slice(0, 40)}' is longer than ${this.keyBytes} bytes`);
    this.key.fill(0);
    this.key.write(key, "utf8");
    const hash = hashOf(this.key, this.seed);
    const bucket = this.bucket(hash & (this.buckets - 1));
    const first = (Math.imul(hash, 0x9e3779b1) >>> 0) % this.slots;
    const tag = 1 + ((hash >>> 24) % 255);
    for (let probe = 0; probe < this.slots; probe++) {
      const offset = ((first + probe) % this.slots) * this.slotBytes;
      const mark = bucket.bytes[offset];
      if (mark === 0) return { bucket, offset, found: false, tag };
      if (mark === tag && this.key.compare(bucket.bytes, offset + 1, offset + 1 + this.keyBytes) === 0) return { bucket, offset, found: true, tag };
    }
    return undefined;
  }

  private bucket(index: number): Bucket {
    const hit = this.cached.get(index);
    if (hit) {
      this.cached.delete(index);
      this.cached.set(index, hit);
      return hit;
    }
    // The bytes of the bucket let go are the new one's: a table read at random allocates nothing per miss (a new
    // buffer each time is memory outside the heap that only a collection returns, and V8 waits for 64 MB of it).
    let bytes: Buffer;
    if (this.cached.size >= this.mostCached) {
      const [oldest, evicted] = this.cached.entries().next().value as [number, Bucket];
      this.cached.delete(oldest);
      if (evicted.dirty) writeSync(this.fd, evicted.bytes, 0, BUCKET_BYTES, oldest * BUCKET_BYTES);
      bytes = evicted.bytes.fill(0);
    } else bytes = Buffer.alloc(BUCKET_BYTES);
    const bucket = { bytes, dirty: false };
    readSync(this.fd, bytes, 0, BUCKET_BYTES, index * BUCKET_BYTES);
    this.cached.set(index, bucket);
    return bucket;
  }

  /** Twice the buckets: bucket b's entries go to b or b + the old count, by one more bit of their hash. */
  private double(): void {
    for (const [index, bucket] of this.cached) if (bucket.dirty) writeSync(this.fd, bucket.bytes, 0, BUCKET_BYTES, index * BUCKET_BYTES);
    this.cached.clear();
    const old = { fd: this.fd, file: this.file, buckets: this.buckets };
    this.generation++;
    this.file = this.fileOf(this.generation);
    this.fd = openSync(this.file, "w+", 0o600);
    this.buckets *= 2;
    const block = Buffer.alloc(SPLIT_BLOCK * BUCKET_BYTES);
    const low = Buffer.alloc(SPLIT_BLOCK * BUCKET_BYTES);
    const high = Buffer.alloc(SPLIT_BLOCK * BUCKET_BYTES);
    for (let from = 0; from < old.buckets; from += SPLIT_BLOCK) {
      const n = Math.min(SPLIT_BLOCK, old.buckets - from);
      block.fill(0);
      low.fill(0);
      high.fill(0);
      readSync(old.fd, block, 0, n * BUCKET_BYTES, from * BUCKET_BYTES);
      for (let b = 0; b < n; b++) {
        for (let s = 0; s < this.slots; s++) {
          const offset = b * BUCKET_BYTES + s * this.slotBytes;
          if (block[offset] === 0) continue;
          const key = block.subarray(offset + 1, offset + 1 + this.keyBytes);
          const hash = hashOf(key, this.seed);
          const into = (hash & (this.buckets - 1)) === from + b ? low : high;
          const first = (Math.imul(hash, 0x9e3779b1) >>> 0) % this.slots;
          for (let probe = 0; ; probe++) {
            const to = b * BUCKET_BYTES + ((first + probe) % this.slots) * this.slotBytes;
            if (into[to] !== 0) continue;
            block.copy(into, to, offset, offset + this.slotBytes);
            break;
          }
        }
      }
      writeSync(this.fd, low, 0, n * BUCKET_BYTES, from * BUCKET_BYTES);
      writeSync(this.fd, high, 0, n * BUCKET_BYTES, (from + old.buckets) * BUCKET_BYTES);
    }
    closeSync(old.fd);
    rmSync(old.file, { force: true });
  }
}

/** FNV-1a over the key's bytes, from the seed. */
function hashOf(key: Uint8Array, seed: number): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key[i]!, 0x01000193);
  return hash >>> 0;
}
