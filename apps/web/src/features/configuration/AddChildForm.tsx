import { type EntryType, isIdentifier, newChildEntryRoute, queryStringOf } from '@dossier/core';
import { Button, Group, Select, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';
import { entryPath } from './types';

/** Adds a child: name (required) and id (identifier); the server answers its id, then it opens. */
export function AddChildForm(props: { configurationId: string; parentId: string; childTypes: EntryType[] }) {
  const { t } = useTranslation();
  const { api, view: store } = useServices();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [childId, setChildId] = useState('');
  const [type, setType] = useState<string | null>(
    props.childTypes.length === 1 ? (props.childTypes[0] ?? null) : null,
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const idInvalid = childId !== '' && !isIdentifier(childId);

  async function add() {
    setBusy(true);
    try {
      const created = await api.call(newChildEntryRoute, {
        params: { c: props.configurationId, id: props.parentId },
        query: { childId, name: name.trim(), type: type ?? '' },
      });
      navigate(
        `${entryPath(props.configurationId, created.id)}${queryStringOf({ name: created.name, type: created.type })}`,
      );
    } catch (error) {
      if (error instanceof ApiError && error.fields) setErrors(error.fields);
      store.report(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Group align="flex-start" data-testid="add-child">
      <TextInput
        label={t('configuration.fields.name')}
        required
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={errors.name}
        data-testid="add-child-name"
      />
      <TextInput
        label={t('configuration.fields.id')}
        required
        value={childId}
        onChange={(e) => setChildId(e.currentTarget.value.trim())}
        error={idInvalid ? t('configuration.rules.identifier') : errors.childId}
        data-testid="add-child-id"
      />
      {props.childTypes.length > 1 && (
        <Select
          label={t('configuration.fields.type')}
          required
          value={type}
          onChange={setType}
          data={props.childTypes.map((value) => ({ value, label: t(`configuration.types.${value}`) }))}
          error={errors.type}
          data-testid="add-child-type"
        />
      )}
      <Button
        mt={25}
        onClick={add}
        disabled={busy || !name.trim() || !childId || idInvalid || !type}
        data-testid="add-child-button"
      >
        {t('configuration.addChild')}
      </Button>
    </Group>
  );
}
