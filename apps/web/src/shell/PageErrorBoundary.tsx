import { Alert, Button, Group, Text } from '@mantine/core';
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

// A page that fails to draw (a view the page did not expect) shows a sentence and a way on, inside
// the shell, instead of the router's developer error screen; the menu stays usable, and moving to
// another address tries again.

function PageFailed({ onRetry }: { onRetry(): void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" title={t('shell.pageFailed')} data-testid="page-failed">
      <Text size="sm" mb="sm">
        {t('shell.pageFailedHint')}
      </Text>
      <Group gap="sm">
        <Button size="xs" onClick={() => window.location.reload()}>
          {t('shell.reload')}
        </Button>
        <Button size="xs" variant="default" onClick={onRetry}>
          {t('shell.tryAgain')}
        </Button>
      </Group>
    </Alert>
  );
}

class Boundary extends Component<{ children: ReactNode; resetKey: string }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidUpdate(previous: { resetKey: string }) {
    if (previous.resetKey !== this.props.resetKey && this.state.failed) this.setState({ failed: false });
  }
  override componentDidCatch(error: unknown) {
    console.error('The page could not be shown:', error);
  }
  override render() {
    return this.state.failed ? (
      <PageFailed onRetry={() => this.setState({ failed: false })} />
    ) : (
      this.props.children
    );
  }
}

export function PageErrorBoundary({ children }: { children: ReactNode }) {
  const location = useLocation();
  return <Boundary resetKey={location.pathname + location.search}>{children}</Boundary>;
}
