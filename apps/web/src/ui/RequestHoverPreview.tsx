import { type RequestPreview, requestPreviewRoute } from '@dossier/core';
import { Divider, Paper, Portal, Stack, Text } from '@mantine/core';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../shell/ServicesContext';
import { formatDate, formatDateTime } from './dates';

// The hover preview of a request in a list: sender summary, applicant, recipient, content
// and last activity from GET /requests/{n}/preview. The popup follows its anchor (the position is
// refreshed every 100 ms, so it stays put while lists scroll or re-render); if loading fails it
// closes and a warning is logged.

const POSITION_REFRESH_MS = 100;
const OPEN_DELAY_MS = 300;
const WIDTH = 360;

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </div>
  );
}

export function RequestHoverPreview({
  requestNumber,
  children,
}: {
  requestNumber: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { api } = useServices();
  const anchor = useRef<HTMLSpanElement>(null);
  const [hover, setHover] = useState(false);
  const [open, setOpen] = useState(false);
  const [preview, setPreview] = useState<RequestPreview>();
  const [position, setPosition] = useState<{ top: number; left: number }>();

  useEffect(() => {
    if (!hover) return setOpen(false);
    const timer = setTimeout(() => setOpen(true), OPEN_DELAY_MS);
    return () => clearTimeout(timer);
  }, [hover]);

  useEffect(() => {
    if (!open) return;
    let live = true;
    setPreview(undefined);
    api
      .call(requestPreviewRoute, { params: { requestNumber } })
      .then((p) => live && setPreview(p))
      .catch((error) => {
        if (!live) return;
        console.warn(`Could not load the preview of request ${requestNumber}`, error);
        setOpen(false);
        setHover(false);
      });
    return () => {
      live = false;
    };
  }, [api, open, requestNumber]);

  useEffect(() => {
    if (!open) return;
    const place = () => {
      const rect = anchor.current?.getBoundingClientRect();
      if (!rect) return;
      const left = Math.max(8, Math.min(rect.left, window.innerWidth - WIDTH - 8));
      setPosition((p) =>
        p && p.top === rect.bottom + 6 && p.left === left ? p : { top: rect.bottom + 6, left },
      );
    };
    place();
    const timer = setInterval(place, POSITION_REFRESH_MS);
    return () => clearInterval(timer);
  }, [open]);

  const p = preview?.request;
  return (
    <>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: hovering only shows extra information */}
      <span ref={anchor} onMouseEnter={() => setHover(true)} onMouseLeave={() => setHover(false)}>
        {children}
      </span>
      {open && position && (
        <Portal>
          <Paper
            withBorder
            shadow="lg"
            p="sm"
            radius="md"
            w={WIDTH}
            style={{ position: 'fixed', top: position.top, left: position.left, zIndex: 300 }}
            onMouseEnter={() => setHover(true)}
            onMouseLeave={() => setHover(false)}
            data-testid="request-hover-preview"
          >
            {!p ? (
              <Text size="sm" c="dimmed">
                {t('request.preview.loading')}
              </Text>
            ) : (
              <Stack gap={6}>
                <Text fw={700}>{p.requestNumber}</Text>
                <Line label={t('request.preview.sender')}>{p.senderSummary}</Line>
                <Line label={t('request.preview.applicant')}>
                  {[
                    p.applicant.name,
                    p.applicant.dateOfBirth && formatDate(p.applicant.dateOfBirth),
                    p.applicant.reference1,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </Line>
                <Line label={t('request.preview.recipient')}>
                  {[p.recipient.name, p.recipient.phone, p.recipient.email].filter(Boolean).join(' · ')}
                </Line>
                {p.contentSummary && <Line label={t('request.preview.content')}>{p.contentSummary}</Line>}
                <Line label={t('request.preview.lastActivity')}>{formatDateTime(p.lastActivityAt)}</Line>
                {preview?.mostRecentCorrespondence && (
                  <>
                    <Divider />
                    <Line label={t('request.preview.mostRecent')}>
                      <Text span size="xs" c="dimmed">
                        {formatDateTime(preview.mostRecentCorrespondence.createdAt)}
                        {preview.mostRecentCorrespondence.createdByDisplayName
                          ? ` · ${preview.mostRecentCorrespondence.createdByDisplayName}`
                          : ''}
                      </Text>
                      <br />
                      {preview.mostRecentCorrespondence.subject ?? preview.mostRecentCorrespondence.excerpt}
                    </Line>
                  </>
                )}
              </Stack>
            )}
          </Paper>
        </Portal>
      )}
    </>
  );
}
