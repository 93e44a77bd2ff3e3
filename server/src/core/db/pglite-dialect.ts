import type { PGlite } from '@electric-sql/pglite';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';

/**
 * Kysely dialect over one embedded PGlite instance. PGlite is a single session, so
 * the driver hands out that one connection to one borrower at a time: a transaction
 * holds it until commit, and other queries wait instead of interleaving into it.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(compiled.sql, compiled.parameters as unknown[]);
    return {
      rows: result.rows,
      numAffectedRows: result.affectedRows === undefined ? undefined : BigInt(result.affectedRows),
    };
  }
  // biome-ignore lint/correctness/useYield: streaming is not offered by the embedded engine
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on PGlite');
  }
}

class PGliteDriver implements Driver {
  private readonly connection: PGliteConnection;
  private queue: Promise<void> = Promise.resolve();
  private release: (() => void) | null = null;

  constructor(pglite: PGlite) {
    this.connection = new PGliteConnection(pglite);
  }
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    this.release = release;
    return this.connection;
  }
  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery({ sql: 'begin', parameters: [], query: { kind: 'RawNode' } } as never);
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery({ sql: 'commit', parameters: [], query: { kind: 'RawNode' } } as never);
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery({ sql: 'rollback', parameters: [], query: { kind: 'RawNode' } } as never);
  }
  async releaseConnection() {
    const release = this.release;
    this.release = null;
    release?.();
  }
  async destroy() {}
}
