import { AppError } from './errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs: anything else names nothing, and is answered 404 without asking the database. */
export const isUuid = (value: string): boolean => UUID.test(value);

/** A path id that is not a UUID names nothing: 404, like an id of another workspace. */
export function requireUuid(id: string, resource: string, param = 'id'): string {
  if (!isUuid(id)) throw new AppError('resource_not_found', `No such ${resource}.`, { param });
  return id.toLowerCase();
}
