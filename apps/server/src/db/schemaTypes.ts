import type { ColumnType } from 'kysely';

// Column types shared by the table definitions (schema.ts, schemaRequests.ts). The schema test
// (apps/server/test/dbSchema.test.ts) compares them with the columns the migrations create.
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** A timestamp column without a default: every insert gives it. */
export type RequiredTimestamp = ColumnType<Date, Date | string, Date | string>;
export type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;
/** A date column: node-postgres reads it as a Date (local midnight); written as 'YYYY-MM-DD'. */
export type DateColumn = ColumnType<Date, string, string>;
export type NullableDateColumn = ColumnType<Date | null, string | null, string | null>;
/** A bigint column: read as text (see database.ts), so no precision is lost; written as either. */
export type Bigint = ColumnType<string, string | number, string | number>;
export type NullableBigint = ColumnType<string | null, string | number | null, string | number | null>;
