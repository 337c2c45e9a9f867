import '@mantine/charts/styles.css';
import type { ReportChart as Chart } from '@dossier/core';
import { BarChart } from '@mantine/charts';
import { Paper, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../ui/dates';

// Loaded lazily (ReportPage): recharts is most of the weight of a report page, and only a run
// with a chart needs it.

const COLORS: Record<string, string> = {
  onTime: 'teal.6',
  overdue: 'red.6',
  requests: 'blue.6',
  invoices: 'blue.6',
  qualityAssured: 'teal.6',
  awaitingQa: 'yellow.6',
  downloaded: 'blue.6',
  discarded: 'gray.5',
  pages: 'blue.6',
  api: 'violet.6',
  exports: 'orange.6',
};

/** The report's chart: a bar per category (a week, a task type, an age, a user), stacked by series. */
export default function ReportChart({ chart }: { chart: Chart }) {
  const { t } = useTranslation();
  const category = (value: string) => {
    if (chart.title === 'activeByType') return t(`taskTypes.${value}`, { defaultValue: value });
    if (chart.title === 'openByAge') return t('reports.chart.age', { range: value });
    if (chart.title === 'completedByUser') return value;
    return t('reports.chart.week', { date: formatDate(value) });
  };
  const data = chart.categories.map((c, i) => ({
    category: category(c),
    ...Object.fromEntries(chart.series.map((s) => [s.key, s.values[i] ?? 0])),
  }));
  return (
    <Paper withBorder p="md" mt="md" data-testid="report-chart">
      <Title order={4} mb="sm">
        {t(`reports.chart.titles.${chart.title}`, { defaultValue: chart.title })}
      </Title>
      <BarChart
        h={280}
        data={data}
        dataKey="category"
        type={chart.series.length > 1 ? 'stacked' : 'default'}
        withLegend
        maxBarWidth={72}
        // Counts of requests and tasks: no half bars on the axis.
        yAxisProps={{ allowDecimals: false }}
        series={chart.series.map((s) => ({
          name: s.key,
          label: t(`reports.chart.series.${s.key}`, { defaultValue: s.key }),
          color: COLORS[s.key] ?? 'gray.6',
        }))}
      />
    </Paper>
  );
}
