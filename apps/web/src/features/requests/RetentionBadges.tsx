import type { RequestView } from '@dossier/core';
import { Badge, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from './requestApi';

/** Beside the status: a legal hold (staff only, with its reason), removed files, de-identification. */
export function RetentionBadges({ view }: { view: RequestView }) {
  const { t } = useTranslation();
  const r = view.retention;
  if (!r) return null;
  return (
    <>
      {r.legalHold && (
        <Tooltip
          label={t('request.legalHold.badgeTitle', {
            at: formatDateTime(r.legalHold.at),
            reason: r.legalHold.reason,
          })}
        >
          <Badge size="lg" color="orange" variant="light" data-testid="request-legal-hold">
            {t('request.legalHold.badge')}
          </Badge>
        </Tooltip>
      )}
      {r.filesRemovedAt && (
        <Tooltip label={t('request.legalHold.filesRemovedTitle', { at: formatDateTime(r.filesRemovedAt) })}>
          <Badge size="lg" color="gray" variant="outline" data-testid="request-files-removed">
            {t('request.legalHold.filesRemoved')}
          </Badge>
        </Tooltip>
      )}
      {r.deIdentifiedAt && (
        <Tooltip label={t('request.legalHold.deIdentifiedTitle', { at: formatDateTime(r.deIdentifiedAt) })}>
          <Badge size="lg" color="gray" variant="outline" data-testid="request-de-identified">
            {t('request.legalHold.deIdentified')}
          </Badge>
        </Tooltip>
      )}
    </>
  );
}
