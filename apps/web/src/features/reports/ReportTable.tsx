import {
  formatReportCell,
  type ReportAnswer,
  type ReportColumn,
  type ReportRow,
  type ReportView,
} from '@dossier/core';
import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The result summary of a report: one row per group with the spec's column kinds formatted (counts,
 * averages weighted by a count column, on-time and QA ratios as percentages, amounts with their
 * currency code, days to one decimal) and a totals row. Scope ids show the scope's name and path.
 */
export function ReportTable({ view, answer }: { view: ReportView; answer: ReportAnswer }) {
  const { t } = useTranslation();
  const scopeNames = new Map(view.scopes.map((s) => [s.path, s.name]));
  const numeric = (c: ReportColumn) => c.kind !== 'id';

  const idCell = (column: ReportColumn, row: ReportRow) => {
    const value = row[column.key];
    if (value === null || value === undefined) return '';
    if (column.key === 'taskType') return t(`taskTypes.${value}`, { defaultValue: String(value) });
    if (column.key === 'scope') {
      const name = scopeNames.get(String(value));
      return name && name !== value ? (
        <>
          {name}
          <Text size="xs" c="dimmed">
            {value}
          </Text>
        </>
      ) : (
        String(value)
      );
    }
    return String(value);
  };
  const cell = (column: ReportColumn, row: ReportRow) =>
    column.kind === 'id' ? idCell(column, row) : formatReportCell(column, row);

  return (
    <Table.ScrollContainer minWidth={600}>
      <Table striped withTableBorder data-testid="report-table">
        <Table.Thead>
          <Table.Tr>
            {answer.columns.map((c) => (
              <Table.Th key={c.key} ta={numeric(c) ? 'right' : undefined}>
                {t(`reports.columns.${c.key}`, { defaultValue: c.key })}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {answer.rows.map((row, index) => (
            <Table.Tr
              // Rows have no id of their own: their id columns together name them.
              key={answer.columns
                .filter((c) => c.kind === 'id')
                .map((c) => String(row[c.key] ?? index))
                .join('|')}
              data-testid="report-row"
            >
              {answer.columns.map((c) => (
                <Table.Td
                  key={c.key}
                  ta={numeric(c) ? 'right' : undefined}
                  data-column={c.key}
                  // The raw id (a scope path, a task type), as the export writes it.
                  data-value={c.kind === 'id' ? String(row[c.key] ?? '') : undefined}
                >
                  {cell(c, row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
        {answer.totals && (
          <Table.Tfoot>
            <Table.Tr data-testid="report-totals" fw={700}>
              {answer.columns.map((c, i) => (
                <Table.Td key={c.key} ta={numeric(c) ? 'right' : undefined} data-column={c.key}>
                  {i === 0 ? t('reports.total') : cell(c, answer.totals as ReportRow)}
                </Table.Td>
              ))}
            </Table.Tr>
            {/* Amounts in several currencies do not add up: a total of each under the counts. */}
            {(answer.currencyTotals ?? []).map((totals) => {
              const code = String(currencyOf(answer.columns, totals) ?? '');
              return (
                <Table.Tr key={code} data-testid="report-currency-totals" data-currency={code} fw={700}>
                  {answer.columns.map((c, i) => (
                    <Table.Td key={c.key} ta={numeric(c) ? 'right' : undefined} data-column={c.key}>
                      {i === 0 ? t('reports.totalIn', { currency: code }) : cell(c, totals)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              );
            })}
          </Table.Tfoot>
        )}
      </Table>
    </Table.ScrollContainer>
  );
}

function currencyOf(columns: readonly ReportColumn[], row: ReportRow) {
  const money = columns.find((c) => c.kind === 'currency');
  return money && money.kind === 'currency' ? row[money.currencyKey] : null;
}
