import type { TagDefinition } from '@dossier/core';
import { Select, SimpleGrid } from '@mantine/core';

/** The tags of an action, three per row; a required tag has no empty choice. */
export function TagSelects({
  definitions,
  value,
  onChange,
  errors,
}: {
  definitions: readonly TagDefinition[];
  value: Record<string, string>;
  onChange(value: Record<string, string>): void;
  errors: Record<string, string>;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      {definitions.map((tag) => (
        <Select
          key={tag.id}
          label={tag.name}
          required={tag.isRequired}
          data={tag.values}
          value={value[tag.id] ?? null}
          allowDeselect={!tag.isRequired}
          clearable={!tag.isRequired}
          onChange={(v) => {
            const next = { ...value };
            if (v) next[tag.id] = v;
            else delete next[tag.id];
            onChange(next);
          }}
          error={errors[`tags.${tag.id}`]}
          data-testid={`tag-${tag.id}`}
        />
      ))}
    </SimpleGrid>
  );
}
