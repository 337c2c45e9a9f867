import { Alert, Button, Code, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** New recovery codes, shown this once (issue 35): the user keeps them, then says so. */
export function RecoveryCodesShown({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" title={t('secondFactors.recoveryTitle')} data-testid="recovery-codes">
      <Stack>
        <Text size="sm">{t('secondFactors.recoveryShown')}</Text>
        <SimpleGrid cols={2}>
          {codes.map((c) => (
            <Code key={c} data-testid="recovery-code">
              {c}
            </Code>
          ))}
        </SimpleGrid>
        <Button variant="default" onClick={onDone} data-testid="recovery-codes-done">
          {t('secondFactors.recoveryDone')}
        </Button>
      </Stack>
    </Alert>
  );
}
