import type { TagDefinition, TagValues } from '@dossier/core';
import { Select, SimpleGrid } from '@mantine/core';

/**
 * The tags of an action (tags required by the server), three per row. A required tag has no
 * empty choice: it cannot be cleared once chosen.
 */
export function TagSelects(props: {
  definitions: readonly TagDefinition[];
  values: TagValues;
  onChange(values: TagValues): void;
  errors: Record<string, string | undefined>;
  disabled?: boolean | undefined;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      {props.definitions.map((tag) => (
        <Select
          key={tag.id}
          label={tag.name}
          data={[...tag.values]}
          value={props.values[tag.id] ?? null}
          onChange={(value) => {
            const { [tag.id]: _old, ...rest } = props.values;
            props.onChange(value ? { ...rest, [tag.id]: value } : rest);
          }}
          required={tag.isRequired}
          clearable={!tag.isRequired}
          allowDeselect={!tag.isRequired}
          error={props.errors[`tags.${tag.id}`]}
          {...(props.disabled !== undefined && { disabled: props.disabled })}
          comboboxProps={{ withinPortal: true }}
          data-testid={`tag-${tag.id}`}
        />
      ))}
    </SimpleGrid>
  );
}

/** Field errors for required tags left empty (the server checks the same). */
export function missingTags(
  definitions: readonly TagDefinition[],
  values: TagValues,
  message: (name: string) => string,
) {
  const errors: Record<string, string> = {};
  for (const tag of definitions)
    if (tag.isRequired && !values[tag.id]) errors[`tags.${tag.id}`] = message(tag.name);
  return errors;
}
