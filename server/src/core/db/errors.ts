/** PostgreSQL's unique_violation (SQLSTATE 23505): the row the statement would write already exists. */
export const isUniqueViolation = (error: unknown): boolean =>
  (error as { code?: string } | null)?.code === '23505';
