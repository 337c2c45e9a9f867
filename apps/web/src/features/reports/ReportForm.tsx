import { REPORT_EXPORT_CAP, type ReportView } from '@dossier/core';
import { Button, Group, Paper, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { IconDownload, IconPlayerPlay } from '@tabler/icons-react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../ui/DateField';
import { useBusinessZoneHint } from '../../ui/dates';
import { DATE_BASES, type Filters } from './address';

export interface ReportFormProps {
  view: ReportView;
  filters: Filters;
  errors: Partial<Filters>;
  running: boolean;
  /** The export of the last run; none before a run. */
  exportHref: string | undefined;
  onChange(filters: Filters): void;
  /** A date field's text became a date again (or stopped being one). */
  onReadableChange(name: 'from' | 'to', readable: boolean): void;
  onRun(): void;
}

/** The Run Report form: the filters the report offers, Run Report and export. */
export function ReportForm({
  view,
  filters,
  errors,
  running,
  exportHref,
  onChange,
  onReadableChange,
  onRun,
}: ReportFormProps) {
  const { t } = useTranslation();
  const daysHint = useBusinessZoneHint('days');
  const offers = (name: keyof Filters) => view.filters.includes(name);
  const set = (name: keyof Filters, value: string | null) => onChange({ ...filters, [name]: value ?? '' });
  const select = (
    name: 'scope' | 'taskType' | 'status' | 'currency',
    data: { value: string; label: string }[],
  ) => (
    <Select
      label={t(`reports.fields.${name}`)}
      placeholder={t(`reports.any.${name}`)}
      data={data}
      value={filters[name] || null}
      onChange={(value) => set(name, value)}
      clearable
      searchable={data.length > 8}
      error={errors[name]}
      data-testid={`report-${name}`}
    />
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    onRun();
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={onSubmit} data-testid="report-form">
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        {offers('date') && (
          <Select
            label={t('reports.fields.date')}
            data={DATE_BASES.map((value) => ({ value, label: t(`reports.dateBases.${value}`) }))}
            value={filters.date || DATE_BASES[0]}
            onChange={(value) => set('date', value)}
            allowDeselect={false}
            error={errors.date}
            data-testid="report-date"
          />
        )}
        {(['from', 'to'] as const).map(
          (name) =>
            offers(name) && (
              <DateField
                key={name}
                label={t(`reports.fields.${name}`)}
                description={daysHint}
                value={filters[name] || null}
                onChange={(value) => set(name, value)}
                invalidMessage={t('reports.invalidDate')}
                onReadableChange={(readable) => onReadableChange(name, readable)}
                error={errors[name]}
                data-testid={`report-${name}`}
              />
            ),
        )}
        {offers('scope') &&
          select(
            'scope',
            view.scopes.map((s) => ({
              value: s.path,
              label: s.name === s.path ? s.path : `${s.name} (${s.path})`,
            })),
          )}
        {offers('taskType') &&
          select(
            'taskType',
            view.taskTypes.map((type) => ({ value: type, label: t(`taskTypes.${type}`) })),
          )}
        {offers('status') &&
          select(
            'status',
            view.statuses.map((status) => ({ value: status, label: t(`reports.statuses.${status}`) })),
          )}
        {offers('currency') &&
          select(
            'currency',
            view.currencies.map((code) => ({ value: code, label: code })),
          )}
        {(['user', 'applicant', 'request'] as const).map(
          (name) =>
            offers(name) && (
              <TextInput
                key={name}
                label={t(`reports.fields.${name}`)}
                value={filters[name]}
                onChange={(event) => set(name, event.currentTarget.value)}
                error={errors[name]}
                data-testid={`report-${name}`}
              />
            ),
        )}
      </SimpleGrid>
      <Group justify="flex-end" mt="md">
        <Text size="sm" c="dimmed" mr="auto" data-testid="report-export-cap">
          {t('reports.exportCap', { cap: REPORT_EXPORT_CAP.toLocaleString('en-AU') })}
        </Text>
        {exportHref ? (
          <Button
            component="a"
            href={exportHref}
            download
            variant="default"
            leftSection={<IconDownload size={16} />}
            data-testid="report-export"
          >
            {t('reports.export')}
          </Button>
        ) : (
          <Button
            variant="default"
            disabled
            leftSection={<IconDownload size={16} />}
            data-testid="report-export"
          >
            {t('reports.export')}
          </Button>
        )}
        <Button
          type="submit"
          loading={running}
          disabled={running}
          leftSection={<IconPlayerPlay size={16} />}
          data-testid="report-run"
        >
          {t('reports.run')}
        </Button>
      </Group>
    </Paper>
  );
}
