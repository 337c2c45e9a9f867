import type { RequestView } from '@dossier/core';
import { Badge, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from './requestApi';

function StateBadge(props: {
  title: string;
  label: string;
  color: string;
  outline?: boolean;
  testId: string;
}) {
  return (
    <Tooltip label={props.title}>
      <Badge
        size="lg"
        color={props.color}
        variant={props.outline ? 'outline' : 'light'}
        data-testid={props.testId}
      >
        {props.label}
      </Badge>
    </Tooltip>
  );
}

/** Beside the status: a legal hold (staff only, with its reason), removed files, de-identification. */
export function RetentionBadges({ view }: { view: RequestView }) {
  const { t } = useTranslation();
  const r = view.retention;
  if (!r) return null;
  return (
    <>
      {r.legalHold && (
        <StateBadge
          title={t('request.legalHold.badgeTitle', {
            at: formatDateTime(r.legalHold.at),
            reason: r.legalHold.reason,
          })}
          label={t('request.legalHold.badge')}
          color="orange"
          testId="request-legal-hold"
        />
      )}
      {r.filesRemovedAt && (
        <StateBadge
          title={t('request.legalHold.filesRemovedTitle', { at: formatDateTime(r.filesRemovedAt) })}
          label={t('request.legalHold.filesRemoved')}
          color="gray"
          outline
          testId="request-files-removed"
        />
      )}
      {r.deIdentifiedAt && (
        <StateBadge
          title={t('request.legalHold.deIdentifiedTitle', { at: formatDateTime(r.deIdentifiedAt) })}
          label={t('request.legalHold.deIdentified')}
          color="gray"
          outline
          testId="request-de-identified"
        />
      )}
    </>
  );
}
