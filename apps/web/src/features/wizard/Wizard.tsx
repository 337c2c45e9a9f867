import {
  canSubmit,
  createRequestRoute,
  discardDraftRoute,
  draftPageRoute,
  goBack,
  goNext,
  isStepReachable,
  type NewRequestView,
  newRequestPageRoute,
  pathOfRoute,
  queryStringOf,
  stepErrors,
  stepIndex,
  WIZARD_STEPS,
  type WizardStep,
  wizardButtons,
} from '@dossier/core';
import { Alert, Button, Group, Modal, Paper, Stack, Stepper, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';
import { formatTime } from '../../ui/dates';
import { ApplicantStep } from './ApplicantStep';
import { ContentStep } from './ContentStep';
import { RecipientStep } from './RecipientStep';
import { SenderStep } from './SenderStep';
import { SubmitStep } from './SubmitStep';
import { useWizardDraft, type WizardDraft } from './useWizardDraft';

function SaveState({ draft }: { draft: WizardDraft }) {
  const { t } = useTranslation();
  const s = draft.save;
  const text =
    s.state === 'saving'
      ? t('wizard.saving')
      : s.state === 'failed'
        ? t(s.retrying ? 'wizard.saveRetrying' : 'wizard.saveFailed', { message: s.message })
        : s.savedAt
          ? t('wizard.savedAt', { time: formatTime(s.savedAt) })
          : '';
  return (
    <Text
      size="xs"
      c={s.state === 'failed' ? 'red' : 'dimmed'}
      data-testid="draft-save-state"
      data-state={s.state}
    >
      {text}
    </Text>
  );
}

/**
 * The five-step wizard over one draft. Moving to another step saves the draft and opens its
 * address (/requests/new/{draftId}?step=), so the page can be reloaded or bookmarked at any step.
 */
export function Wizard(props: { view: NewRequestView; draftId: string; onDiscarded?: () => void }) {
  const { t } = useTranslation();
  const { api, view: store } = useServices();
  const navigate = useNavigate();
  const { view, draftId } = props;
  const draft = useWizardDraft(draftId, view.draft, view.senderData, view.organizations);
  const step: WizardStep = view.draft ? view.step : 'sender';
  const [edited, setEdited] = useState(false);
  const [triedNextAt, setTriedNextAt] = useState<WizardStep | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const clientErrors = stepErrors(step, draft.data, draft.ctx);
  const errorOf = (field: string) => serverErrors[field] ?? (edited ? clientErrors[field] : undefined);
  const stepDraft: WizardDraft = {
    ...draft,
    update: (change) => {
      setEdited(true);
      draft.update(change);
    },
  };

  async function goTo(target: WizardStep, completedStep?: number) {
    if (completedStep !== undefined) draft.advanceTo(completedStep);
    setBusy(true);
    const saved = await draft.saveNow();
    setBusy(false);
    if (saved) navigate(pathOfRoute(draftPageRoute.path, { draftId }) + queryStringOf({ step: target }));
  }

  async function submit() {
    setBusy(true);
    setServerErrors({});
    draft.close();
    const d = draft.data;
    try {
      const answer = await api.call(createRequestRoute, {
        body: {
          // Missing parts are the server's to name, field by field.
          sender: { ...d.sender, organization: d.sender?.organization ?? '' },
          applicant: d.applicant ?? {},
          recipient: d.recipient ?? {},
          content: d.content ?? {},
          tags: d.tags ?? {},
          draftId,
        },
      });
      navigate(answer.location);
    } catch (error) {
      draft.resume();
      if (error instanceof ApiError && error.fields) setServerErrors(error.fields);
      store.report(error);
    } finally {
      setBusy(false);
    }
  }

  async function discard() {
    setBusy(true);
    draft.close();
    try {
      // A draft never saved is gone already: the server answers so too.
      await api.call(discardDraftRoute, { params: { draftId } });
      props.onDiscarded?.();
      navigate(newRequestPageRoute.path);
    } catch (error) {
      draft.resume();
      store.report(error);
    } finally {
      setBusy(false);
      setConfirmDiscard(false);
    }
  }

  const next = goNext(step, draft.completedStep, draft.data, draft.ctx);
  const buttons = wizardButtons(step);
  return (
    <Stack data-testid="wizard" data-step={step}>
      <Stepper
        active={stepIndex(step)}
        onStepClick={(i) => {
          const target = WIZARD_STEPS[i];
          if (target && target !== step && isStepReachable(target, draft.completedStep)) void goTo(target);
        }}
        size="sm"
      >
        {WIZARD_STEPS.map((s) => (
          <Stepper.Step
            key={s}
            label={t(`wizard.steps.${s}`)}
            allowStepSelect={isStepReachable(s, draft.completedStep)}
            data-testid={`wizard-step-${s}`}
          />
        ))}
      </Stepper>
      {step === 'sender' && (
        <SenderStep draft={stepDraft} organizations={view.organizations} errorOf={errorOf} />
      )}
      {step === 'applicant' && <ApplicantStep draft={stepDraft} errorOf={errorOf} />}
      {step === 'recipient' && <RecipientStep draft={stepDraft} errorOf={errorOf} />}
      {step === 'content' && <ContentStep draft={stepDraft} errorOf={errorOf} />}
      {step === 'submit' && (
        <SubmitStep draft={draft} organizations={view.organizations} serverErrors={serverErrors} />
      )}
      {step !== 'sender' && !draft.senderData && draft.senderStatus.state !== 'loading' && (
        <Alert color="yellow">{t('wizard.content.noItemTypes')}</Alert>
      )}
      <Paper withBorder p="sm">
        <Group justify="space-between">
          <Group gap="xs">
            <Button
              variant="default"
              onClick={() => void draft.saveNow()}
              disabled={busy}
              data-testid="wizard-save-draft"
            >
              {t('wizard.saveDraft')}
            </Button>
            {/* On the first step too, where a new draft is only the form so far (issue 20). */}
            {(view.draft?.isSaved || step === 'sender') && (
              <Button
                variant="subtle"
                color="red"
                onClick={() => setConfirmDiscard(true)}
                data-testid="wizard-discard"
              >
                {t('wizard.discardDraft')}
              </Button>
            )}
            <SaveState draft={draft} />
          </Group>
          <Group gap="xs">
            {triedNextAt === step && !next && (
              <Text c="red" size="sm" role="alert" data-testid="disabled-reason">
                {t('wizard.nextBlocked')}
              </Text>
            )}
            {buttons.includes('back') && (
              <Button
                variant="default"
                onClick={() => void goTo(goBack(step))}
                disabled={busy}
                data-testid="wizard-back"
              >
                {t('wizard.back')}
              </Button>
            )}
            {buttons.includes('next') && (
              <Button
                onClick={() => {
                  // Next is never greyed out for a missing field: pressing it names every field
                  // that blocks it, at the field, and says so here.
                  if (next) void goTo(next.step, next.completedStep);
                  else {
                    setEdited(true);
                    setTriedNextAt(step);
                  }
                }}
                disabled={busy}
                data-testid="wizard-next"
              >
                {t('wizard.next')}
              </Button>
            )}
            {buttons.includes('submit') && (
              <Button
                onClick={() => void submit()}
                disabled={!canSubmit(draft.completedStep, draft.data, draft.ctx) || busy}
                loading={busy}
                data-testid="wizard-submit"
              >
                {t('wizard.submit')}
              </Button>
            )}
          </Group>
        </Group>
      </Paper>
      <Modal
        opened={confirmDiscard}
        onClose={() => setConfirmDiscard(false)}
        title={t('wizard.discardDraft')}
      >
        <Text size="sm">{t('wizard.discardConfirm')}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setConfirmDiscard(false)}>
            {t('wizard.cancel')}
          </Button>
          <Button
            color="red"
            loading={busy}
            onClick={() => void discard()}
            data-testid="wizard-discard-confirm"
          >
            {t('wizard.confirm')}
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
