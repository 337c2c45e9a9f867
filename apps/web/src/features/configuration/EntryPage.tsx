import {
  fieldErrorsOf,
  pathOfRoute,
  type RouteInput,
  revertEntryRoute,
  saveEntryRoute,
  validateEntry,
} from '@dossier/core';
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
import { useServices } from '../../shell/ServicesContext';
import { SavedNotice } from '../../ui/forms/SavedNotice';
import { useFormPage } from '../../ui/forms/useFormPage';
import { CommittedTextInput, IntegerInput } from '../../ui/inputs';
import { definePage } from '../../view/page';
import { AddChildForm } from './AddChildForm';
import { ChildrenList } from './ChildrenList';
import { DeleteEntry } from './DeleteEntry';
import { editorOf } from './editors';
import { type EntryState, type EntryView, entryPath } from './types';

type SaveBody = RouteInput<typeof saveEntryRoute>['body'];

/** Errors of the data, keyed relative to it ('data.url' -> 'url'). */
function dataErrors(errors: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors)
      .filter(([k]) => k.startsWith('data.'))
      .map(([k, v]) => [k.slice(5), v]),
  );
}

/**
 * The rules the server checks a save by: the body's (the contract's schema) and those of the
 * entry's type (validateEntry). Checks only the server can make (a webhook's address, a key,
 * uploaded files) come back with the answer.
 */
function clientErrorsOf(body: SaveBody, entry: EntryState): Record<string, string> {
  const { errors } = validateEntry({
    id: entry.id,
    name: body.name,
    order: body.order,
    type: entry.type,
    data: body.data,
  });
  const { id: _noField, ...shown } = errors;
  return { ...fieldErrorsOf(saveEntryRoute.body?.safeParse(body).error?.issues ?? []), ...shown };
}

/** /admin/configuration/edit/{configuration}/{id}: one entry, its own editor and its children. */
export const EntryPage = definePage<EntryView>(({ view }) => {
  const { t } = useTranslation();
  const { view: store } = useServices();
  const navigate = useNavigate();
  const form = useFormPage<EntryView>();
  const [refusals, setRefusals] = useState(0);
  const page = useRef<HTMLDivElement>(null);
  // A refused save takes the person to the first field it names (the banner names them in words).
  useEffect(() => {
    if (refusals === 0) return;
    const field = page.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-field-error]');
    field?.scrollIntoView({ block: 'center' });
    field?.focus({ preventScroll: true });
  }, [refusals]);
  const { entry, configuration } = view;
  const disabled = !view.canEdit || form.committing;
  const params = { c: configuration.id, id: entry.id };
  const bodyOf = (latest: EntryState): SaveBody => ({
    name: latest.name,
    order: latest.order,
    isDefault: latest.isDefault,
    isDisabled: latest.isDisabled,
    type: latest.type,
    data: latest.data,
    version: latest.version,
    isInherited: latest.isInherited,
    scopePath: configuration.scopePath,
  });
  // The entry's own rules speak once a save was refused, not while it is being written: an editor
  // adds rows (questions, columns) under fields, and a message coming or going as a field is left
  // moved the Add button between the press and the release of a click, which then did nothing.
  const errors = form.errorsOf(refusals > 0 ? clientErrorsOf(bodyOf(entry), entry) : {});

  const update = (change: Partial<EntryState>, field?: string) =>
    form.edit((v) => ({ ...v, entry: { ...v.entry, ...change } }), field);

  async function save() {
    // Read what is in the store: an input may have committed on blur just before this click.
    const { view: stored } = store.get();
    const result = await form.commit(
      pathOfRoute(saveEntryRoute.path, params),
      bodyOf((stored as EntryView).entry),
    );
    if (!result.ok) setRefusals((n) => n + 1);
    if (result.ok && view.isNew) navigate(entryPath(configuration.id, entry.id), { replace: true });
  }

  async function revert() {
    await form.commit(pathOfRoute(revertEntryRoute.path, params), undefined);
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
              onCommit={(name) => update({ name }, 'name')}
              error={errors.name}
              disabled={disabled}
              data-testid="entry-name"
            />
            <IntegerInput
              label={t('configuration.fields.order')}
              value={entry.order}
              onCommit={(order) => update({ order: order ?? 0 }, 'order')}
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
            loading={form.committing}
            disabled={!form.dirty && !view.isNew}
            data-testid="save-entry"
          >
            {entry.isInherited ? t('configuration.entry.saveOverride') : t('configuration.save')}
          </Button>
          <Button variant="default" onClick={() => form.revert()} disabled={!form.dirty}>
            {t('configuration.discard')}
          </Button>
          <SavedNotice saved={form.saved} />
          {!view.isNew &&
            !entry.isInherited &&
            !view.canRevertToInherited &&
            !(entry.id === 'c' && configuration.scopePath === '/') && (
              <DeleteEntry
                configurationId={configuration.id}
                entryId={entry.id}
                name={entry.id === 'c' ? configuration.scopePath : entry.name || entry.id}
                isConfiguration={entry.id === 'c'}
              />
            )}
          {view.canRevertToInherited && !entry.isInherited && (
            <Button
              color="orange"
              variant="light"
              onClick={revert}
              disabled={form.committing}
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
