import { PRODUCT_NAME, type View } from '@dossier/core';
import { Container, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../shell/ServicesContext';
import { useStore } from '../../view/createStore';
import { definePage } from '../../view/page';

export interface HomeView extends View {
  $type: 'home';
}

export const HomePage = definePage<HomeView>(() => {
  const { t } = useTranslation();
  const { session } = useServices();
  const name = useStore(session, (s) => s.user?.name);
  return (
    <Container size="md" data-testid="home-page">
      <Title order={2} mb="sm">
        {name ? t('home.welcomeUser', { name }) : t('home.welcome', { product: PRODUCT_NAME })}
      </Title>
      <Text c="dimmed">{t('home.intro', { product: PRODUCT_NAME })}</Text>
    </Container>
  );
});
