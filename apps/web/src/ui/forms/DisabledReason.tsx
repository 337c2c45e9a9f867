import { Text } from '@mantine/core';

/**
 * Why a submit button beside it is disabled, in a sentence (the first rule still unmet); the button
 * names it by aria-describedby. Nothing is shown while the button can be pressed.
 */
export function DisabledReason(props: { id: string; reason: string | undefined }) {
  if (!props.reason) return null;
  return (
    <Text id={props.id} size="sm" c="dimmed" data-testid="disabled-reason">
      {props.reason}
    </Text>
  );
}
