import { Button, Group, Paper, Select, SimpleGrid, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../ui/DateField';
import { useBusinessZoneHint } from '../../ui/dates';
import type { Terms } from './searchTerms';

export interface FindRequestsFormProps {
  terms: Terms;
  scopes: { path: string; name: string }[];
  errors: Record<string, string>;
  searching: boolean;
  onChange(terms: Terms): void;
  onSearch(): void;
  onClear(): void;
}

/** The search fields of Find Requests, plus the full-text field. */
export function FindRequestsForm({
  terms,
  scopes,
  errors,
  searching,
  onChange,
  onSearch,
  onClear,
}: FindRequestsFormProps) {
  const { t } = useTranslation();
  const daysHint = useBusinessZoneHint('days');
  const set = (name: keyof Terms, value: string) => onChange({ ...terms, [name]: value });
  const text = (name: 'requestNumber' | 'subject' | 'recipient' | 'q', description?: string) => (
    <TextInput
      label={t(`requestSearch.fields.${name}`)}
      description={description}
      value={terms[name]}
      onChange={(e) => set(name, e.currentTarget.value)}
      error={errors[name]}
      data-testid={`search-${name}`}
    />
  );
  const date = (name: 'submittedAtFrom' | 'submittedAtTo') => (
    <DateField
      label={t(`requestSearch.fields.${name}`)}
      description={daysHint}
      value={terms[name] || null}
      onChange={(value) => set(name, value ?? '')}
      invalidMessage={t('requestSearch.invalidDate')}
      error={errors[name]}
      data-testid={`search-${name}`}
    />
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSearch();
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={onSubmit} data-testid="find-requests-form">
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        {text('requestNumber')}
        {text('subject')}
        {text('recipient')}
        {date('submittedAtFrom')}
        {date('submittedAtTo')}
        <Select
          label={t('requestSearch.fields.scope')}
          placeholder={t('requestSearch.anyScope')}
          data={scopes.map((s) => ({
            value: s.path,
            label: s.name === s.path ? s.path : `${s.name} (${s.path})`,
          }))}
          value={terms.scope || null}
          onChange={(value) => set('scope', value ?? '')}
          clearable
          error={errors.scope}
          data-testid="search-scope"
        />
      </SimpleGrid>
      <SimpleGrid cols={1} mt="sm">
        {text('q', t('requestSearch.qHint'))}
      </SimpleGrid>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClear} data-testid="search-clear">
          {t('requestSearch.clear')}
        </Button>
        <Button type="submit" loading={searching} disabled={searching} data-testid="search-submit">
          {t('requestSearch.search')}
        </Button>
      </Group>
    </Paper>
  );
}
