import type { EntryType } from '@dossier/core';
import type { ComponentType } from 'react';
import type { EditorProps } from '../types';
import { RequestItemTypeEditor } from './RequestItemTypeEditor';
import { RequestSettingsEditor } from './RequestSettingsEditor';
import { ScimClientEditor } from './ScimClientEditor';
import { ScopeEditor } from './ScopeEditor';
import {
  ApiKeyEditor,
  ApiWebhookEditor,
  PublicHolidaysEditor,
  RetentionEditor,
  RootEditor,
  SmartFormOptionEditor,
  TaskTypeSettingsEditor,
} from './simple';
import { TemplateEditor } from './TemplateEditor';

const EDITORS: { [T in EntryType]: ComponentType<EditorProps<T>> } = {
  configurationRoot: RootEditor,
  apiKeyEntry: ApiKeyEditor,
  apiWebhookEntry: ApiWebhookEditor,
  publicHolidaysEntry: PublicHolidaysEditor,
  requestSettingsEntry: RequestSettingsEditor,
  requestItemTypeEntry: RequestItemTypeEditor,
  scopeEntry: ScopeEditor,
  smartFormOptionEntry: SmartFormOptionEditor,
  templateEntry: TemplateEditor,
  taskTypeSettingsEntry: TaskTypeSettingsEditor,
  scimClientEntry: ScimClientEditor,
  retentionEntry: RetentionEditor,
};

/** The editor of an entry type's own fields. */
export function editorOf(type: EntryType): ComponentType<EditorProps> {
  return (EDITORS[type] ?? RootEditor) as ComponentType<EditorProps>;
}
