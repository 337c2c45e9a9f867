import { buildMenu, type MenuSection } from '@dossier/core';
import { NavLink, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useStore } from '../view/createStore';
import { useServices } from './ServicesContext';

/** Sections shown with a heading; main and help are shown without one. */
const LABELLED_SECTIONS = new Set(['workflow', 'reports', 'administration']);
/** Entry keys used by more than one section get the section in their test id. */
const SHARED_KEYS = new Set(['users']);

export function menuTestId(section: string, key: string): string {
  return SHARED_KEYS.has(key) ? `menu-link-${section}-${key}` : `menu-link-${key}`;
}

function isActive(entryPath: string, pathname: string): boolean {
  const path = entryPath.split('?')[0];
  return pathname === path || pathname.startsWith(`${path}/`);
}

function MenuSectionView({
  section,
  onNavigate,
}: {
  section: MenuSection;
  onNavigate?: (() => void) | undefined;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <Stack gap={2} data-testid={`menu-section-${section.key}`}>
      {LABELLED_SECTIONS.has(section.key) && (
        <Text size="xs" fw={700} c="dimmed" tt="uppercase" mt="sm" px="sm">
          {t(`menu.sections.${section.key}`)}
        </Text>
      )}
      {section.entries.map((entry) => (
        <NavLink
          key={entry.key}
          component={Link}
          to={entry.path}
          label={t(`menu.entries.${section.key}.${entry.key}`)}
          active={isActive(entry.path, pathname)}
          {...(onNavigate !== undefined && { onClick: onNavigate })}
          data-testid={menuTestId(section.key, entry.key)}
        />
      ))}
    </Stack>
  );
}

export function Menu({ onNavigate }: { onNavigate?: (() => void) | undefined }) {
  const { t } = useTranslation();
  const { session } = useServices();
  const user = useStore(session, (s) => s.user);
  const features = useStore(session, (s) => s.features);
  if (!user) return null;
  const sections = buildMenu(user.permissions, features);
  const applications = features.singleSignOn?.applications ?? [];
  return (
    <Stack gap="xs" data-testid="menu" component="nav" aria-label={t('menu.label')}>
      {sections.map((section) => (
        <MenuSectionView key={section.key} section={section} onNavigate={onNavigate} />
      ))}
      {applications.length > 0 && (
        <Stack gap={2} data-testid="menu-section-sso">
          <Text size="xs" fw={700} c="dimmed" tt="uppercase" mt="sm" px="sm">
            {t('menu.sections.applications')}
          </Text>
          {applications.map((application, index) => (
            <NavLink
              key={application.name}
              href={`/sso/applications/${index}`}
              label={application.name}
              data-testid={`menu-link-sso-${index}`}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
