import type { Bigint, DateColumn, NullableDateColumn } from './schemaTypes.js';

// Tables kept by triggers beside the rows they count (reports, assignment), and the reports'
// business-day calendar: derived data, never written by a use case directly.

/** Migration 0026: completed tasks counted per day pair, kept by triggers on tasks (reports). */
export interface TaskCompletionDaysTable {
  completed_on: DateColumn;
  scope: string;
  type: string;
  completed_by: string;
  triggered_on: DateColumn;
  overdue: boolean;
  n: number;
}

/** Migration 20261128_1002: the reports' numbered business days per holiday set (reports/calendar.ts). */
export interface BusinessCalendarTable {
  holidays_key: string;
  d: DateColumn;
  n: number;
}

/** Migration 7001: open tasks per assignee, spread over a few slots by task id; kept by triggers. */
export interface UserOpenTasksTable {
  user_id: string;
  slot: number;
  n: number;
}

/** Migration 20261129_2001: open tasks per assignee and scope, in slots by task id; kept by triggers (Users report). */
export interface UserScopeOpenTasksTable {
  user_id: string;
  scope: string;
  slot: number;
  n: number;
}

/** Migration 6001: request results counted per day pair and state, kept by triggers (reports). */
export interface RequestResultDaysTable {
  created_on: DateColumn;
  scope: string;
  submitted_on: DateColumn;
  state: string;
  n: number;
}

/** Migration 6002: requests counted per status, scope and day pair, kept by triggers (reports). */
export interface RequestDaysTable {
  status: string;
  scope: string;
  submitted_on: DateColumn;
  /** 'infinity' for none. */
  closed_on: DateColumn;
  n: number;
}

/** Migration 20261129_3001: open tasks counted per day pair, spread over a few slots by task id; kept by triggers (reports). */
export interface OpenTaskDaysTable {
  scope: string;
  type: string;
  triggered_on: DateColumn;
  /** Null for a task without a due time. */
  due_on: NullableDateColumn;
  slot: number;
  n: number;
}

/**
 * Migration 20261130_2001: invoices with payments, summed per scope, currency, day added, day paid
 * and the next day paid (null: none), kept by triggers on payments and invoices (Paid Invoices).
 */
export interface InvoicePaidDaysTable {
  scope: string;
  currency: string | null;
  created_on: DateColumn;
  paid_on: DateColumn;
  next_paid_on: NullableDateColumn;
  n: number;
  amount: Bigint;
  amounts: number;
  tax: Bigint;
  paid: Bigint;
  balance: Bigint;
}

/** Migration 20261130_1001: every lexeme of the requests' full text, kept by triggers (Find Requests). */
export interface RequestLexemesTable {
  lexeme: string;
}
