import {
  Alert,
  Anchor,
  Badge,
  Breadcrumbs,
  Button,
  Checkbox,
  Container,
  Group,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';
import { useUnsavedPrompt } from '../../shell/useUnsavedPrompt';
import { CommittedTextInput, IntegerInput } from '../../ui/inputs';
import { useStore } from '../../view/createStore';
import { definePage } from '../../view/page';
import { AddChildForm } from './AddChildForm';
import { ChildrenList } from './ChildrenList';
import { DeleteEntry } from './DeleteEntry';
import { editorOf } from './editors';
import { type EntryState, type EntryView, entryPath } from './types';

/** Errors of the data, keyed relative to it ('data.url' -> 'url'). */
function dataErrors(errors: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors)
      .filter(([k]) => k.startsWith('data.'))
      .map(([k, v]) => [k.slice(5), v]),
  );
}

/** /admin/configuration/edit/{configuration}/{id}: one entry, its own editor and its children. */
export const EntryPage = definePage<EntryView>(({ view }) => {
  const { t } = useTranslation();
  const { view: store } = useServices();
  const navigate = useNavigate();
  const dirty = useStore(store, (s) => s.dirty);
  const committing = useStore(store, (s) => s.committing);
  const [errors, setErrors] = useState<Record<string, string>>({});
  useUnsavedPrompt(dirty);
  const page = useRef<HTMLDivElement>(null);
  // A refused save takes the person to the first field it names (the banner names them in words).
  useEffect(() => {
    if (Object.keys(errors).length === 0) return;
    const field = page.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-field-error]');
    field?.scrollIntoView({ block: 'center' });
    field?.focus({ preventScroll: true });
  }, [errors]);
  const { entry, configuration } = view;
  const disabled = !view.canEdit || committing;
  const path = entryPath(configuration.id, entry.id);

  const update = (change: Partial<EntryState>) =>
    store.edit((v) => ({ ...v, entry: { ...(v as EntryView).entry, ...change } }));

  async function save() {
    setErrors({});
    // Read what is in the store: an input may have committed on blur just before this click.
    const latest = (store.get().view as EntryView).entry;
    const body = {
      name: latest.name,
      order: latest.order,
      isDefault: latest.isDefault,
      isDisabled: latest.isDisabled,
      type: latest.type,
      data: latest.data,
      version: latest.version,
      isInherited: latest.isInherited,
      scopePath: configuration.scopePath,
    };
    const result = await store.commit(path, body);
    if (!result.ok && result.error instanceof ApiError && result.error.fields) setErrors(result.error.fields);
    if (result.ok && view.isNew) navigate(path, { replace: true });
  }

  async function revert() {
    setErrors({});
    await store.commit(`${path}/revert`, undefined);
  }

  const Editor = editorOf(entry.type);
  return (
    <Container ref={page} size="lg" data-testid="configuration-entry" data-entry-type={entry.type}>
      <Breadcrumbs mb="xs">
        <Anchor component={Link} to="/admin/configuration">
          {t('configuration.list.title')}
        </Anchor>
        {view.path.map((p) => (
          <Anchor key={p.id} component={Link} to={entryPath(configuration.id, p.id)}>
            {p.name}
          </Anchor>
        ))}
      </Breadcrumbs>
      <Group mb="md" gap="sm">
        <Title order={2}>{entry.name || entry.id}</Title>
        <Badge variant="light">{t(`configuration.types.${entry.type}`)}</Badge>
        {/* Scope paths are case-sensitive: shown as they are, not in the badge's capitals. */}
        <Badge variant="outline" color="gray" tt="none" data-testid="entry-scope-path">
          {configuration.scopePath}
        </Badge>
        {view.isNew && <Badge color="green">{t('configuration.entry.new')}</Badge>}
        {entry.isInherited && (
          <Badge color="orange" data-testid="inherited-badge">
            {t('configuration.entry.inheritedFrom', { scopePath: entry.inheritedFrom?.scopePath })}
          </Badge>
        )}
      </Group>
      {entry.isInherited && view.canEdit && (
        <Alert color="orange" mb="md" data-testid="inherited-note">
          {t('configuration.entry.inheritedNote')}
        </Alert>
      )}
      <Paper withBorder p="md" mb="md">
        <Stack gap="sm">
          <Group grow align="flex-start">
            <CommittedTextInput
              label={t('configuration.fields.name')}
              required
              value={entry.name}
              onCommit={(name) => update({ name })}
              error={errors.name}
              disabled={disabled}
              data-testid="entry-name"
            />
            <IntegerInput
              label={t('configuration.fields.order')}
              value={entry.order}
              onCommit={(order) => update({ order: order ?? 0 })}
              error={errors.order}
              disabled={disabled}
              data-testid="entry-order"
            />
          </Group>
          <Group>
            <Checkbox
              label={t('configuration.fields.isDefault')}
              checked={entry.isDefault}
              onChange={(e) => update({ isDefault: e.currentTarget.checked })}
              disabled={disabled}
            />
            <Checkbox
              label={t('configuration.fields.isDisabled')}
              checked={entry.isDisabled}
              onChange={(e) => update({ isDisabled: e.currentTarget.checked })}
              disabled={disabled}
            />
          </Group>
          <Editor
            data={entry.data as never}
            onChange={(data: unknown) => update({ data })}
            errors={dataErrors(errors)}
            disabled={disabled}
            view={view}
          />
          {errors.data && (
            <Text c="red" data-field-error tabIndex={-1}>
              {errors.data}
            </Text>
          )}
        </Stack>
      </Paper>
      {view.canEdit && (
        <Group mb="xl">
          <Button
            onClick={save}
            loading={committing}
            disabled={!dirty && !view.isNew}
            data-testid="save-entry"
          >
            {entry.isInherited ? t('configuration.entry.saveOverride') : t('configuration.save')}
          </Button>
          <Button
            variant="default"
            onClick={() => {
              store.revert();
              setErrors({});
            }}
            disabled={!dirty}
          >
            {t('configuration.discard')}
          </Button>
          {!view.isNew &&
            !entry.isInherited &&
            !view.canRevertToInherited &&
            !(entry.id === 'c' && configuration.scopePath === '/') && (
              <DeleteEntry
                path={path}
                name={entry.id === 'c' ? configuration.scopePath : entry.name || entry.id}
                isConfiguration={entry.id === 'c'}
              />
            )}
          {view.canRevertToInherited && !entry.isInherited && (
            <Button
              color="orange"
              variant="light"
              onClick={revert}
              disabled={committing}
              data-testid="revert-entry"
            >
              {t('configuration.entry.revert')}
            </Button>
          )}
        </Group>
      )}
      {/* Only entries of a type that has children show them and offer to add one. */}
      {!view.isNew && (view.childTypes.length > 0 || view.children.length > 0) && (
        <Paper withBorder p="md" data-testid="children-section">
          <Title order={4} mb="sm">
            {t('configuration.children.title')}
          </Title>
          <ChildrenList configurationId={configuration.id} items={view.children} />
          {view.canEdit && view.childTypes.length > 0 && (
            <>
              <Text fw={600} mt="md" mb="xs">
                {t('configuration.addChild')}
              </Text>
              <AddChildForm
                configurationId={configuration.id}
                parentId={entry.id}
                childTypes={view.childTypes}
              />
            </>
          )}
        </Paper>
      )}
    </Container>
  );
});
