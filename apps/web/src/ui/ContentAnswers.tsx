import {
  type ContentAnswersSource,
  type ContentItemType,
  type ContentLine,
  requestContentLines,
} from '@dossier/core';
import { Anchor, Box, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

// What a request asks, as its readers see it: the wizard's review step and the request page show
// the lines the request letter prints, so the submitter checks exactly what the recipient reads.

const INDENT = 18;

function Answer({ line }: { line: ContentLine }) {
  const { t } = useTranslation();
  if (line.files?.length)
    return (
      <Group gap="xs" component="span">
        {line.files.map((f) => (
          <Anchor key={f.key} href={`/files/${encodeURIComponent(f.key)}`} target="_blank" size="sm">
            {f.name ?? f.key}
          </Anchor>
        ))}
      </Group>
    );
  if (!line.answer)
    return (
      <Text size="sm" c="dimmed" fs="italic">
        {t('contentAnswers.notAnswered')}
      </Text>
    );
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-line', wordBreak: 'break-word' }}>
      {line.answer}
    </Text>
  );
}

export function ContentAnswers(props: {
  content: ContentAnswersSource;
  itemTypes: ContentItemType[];
  testId: string;
}) {
  const { t } = useTranslation();
  const lines = requestContentLines(props.content, props.itemTypes, {
    yes: t('contentAnswers.yes'),
    no: t('contentAnswers.no'),
    files: t('contentAnswers.files'),
    additionalQuestions: t('contentAnswers.additionalQuestions'),
  });
  if (lines.length === 0) return null;
  return (
    <Stack gap={6} data-testid={props.testId}>
      {lines.map((line, i) => {
        const key = `${i}-${line.kind}-${line.label}`;
        if (line.kind === 'itemType' || line.kind === 'additionalQuestions')
          return (
            <Text key={key} fw={700} mt={i === 0 ? 0 : 'xs'} data-testid={`${props.testId}-heading`}>
              {line.label}
            </Text>
          );
        const hasAnswer = line.kind !== 'fieldSet' && line.kind !== 'additionalQuestion';
        return (
          <Box key={key} pl={line.level * INDENT} data-testid={`${props.testId}-line`} data-kind={line.kind}>
            <Text size="sm" fw={600} style={{ wordBreak: 'break-word' }}>
              {line.number ? `${line.number}.  ${line.label}` : line.label}
            </Text>
            {hasAnswer && (
              <Box pl={INDENT}>
                <Answer line={line} />
              </Box>
            )}
          </Box>
        );
      })}
    </Stack>
  );
}
