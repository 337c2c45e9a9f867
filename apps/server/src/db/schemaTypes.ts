import type { ColumnType } from 'kysely';

// Column types shared by the table definitions (schema.ts, schemaRequests.ts).
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;
export type Json = ColumnType<unknown, string, string>;
