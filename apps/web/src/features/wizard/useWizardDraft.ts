import {
  type DraftData,
  type OpenDraft,
  reconcileCompletedStep,
  type SenderData,
  saveDraftRoute,
  senderDataRoute,
  wizardContextOf,
} from '@dossier/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';
import { applySenderData } from './senderDefaults';

// The draft being edited: its data and completed step, the sender data of its organisation, and
// saving. A draft never loses what was typed: every change is saved a moment after the last key,
// Save Draft saves at once, a save that failed for a passing reason (the network, the server, an
// expired session) is tried again by itself with growing pauses and as soon as the browser is back
// online, and a page being left sends what is pending with a keepalive request. A new draft is not
// saved by itself until something beyond the organisation was entered (choosing the organisation
// and the defaults it brings are no work to lose): the drafts list does not fill up with empty
// drafts of people who only looked at the wizard (issue 20). Save Draft and Next save at once.

const AUTOSAVE_MS = 800;
/** Pauses before the retries of a failed save: 2, 4, 8, 15, then every 30 seconds. */
const RETRY_MS = [2_000, 4_000, 8_000, 15_000, 30_000];

/** A failure that may pass by itself; a refusal of the draft (400, 403, 404, 409 …) will not. */
export function isPassingFailure(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 401 || error.status === 408 || error.status === 429 || error.status >= 500;
}

export function retryDelayMs(failures: number): number {
  // The index stays within the list; the last delay is the longest.
  return RETRY_MS[Math.min(Math.max(failures, 1), RETRY_MS.length) - 1] ?? 30_000;
}

/** Whether changes may be saved by themselves: a saved draft's always, a new one's once entered. */
export function mayAutosave(draft: { isSaved: boolean; entered: boolean }): boolean {
  return draft.isSaved || draft.entered;
}

export type SaveStatus =
  | { state: 'idle'; savedAt?: string }
  | { state: 'saving' }
  | { state: 'failed'; message: string; retrying: boolean };

export type SenderStatus = { state: 'idle' | 'loading' } | { state: 'failed'; message: string };

export function useWizardDraft(
  draftId: string,
  initial: OpenDraft | null,
  initialSender: SenderData | null,
  organizations: readonly { scopePath: string }[] = [],
) {
  const { api } = useServices();
  const [data, setData] = useState<DraftData>(initial?.data ?? {});
  const [completedStep, setCompletedStep] = useState(initial?.completedStep ?? 0);
  const [senderData, setSenderData] = useState<SenderData | null>(initialSender);
  const [senderStatus, setSenderStatus] = useState<SenderStatus>({ state: 'idle' });
  const [save, setSave] = useState<SaveStatus>({ state: 'idle' });
  const latest = useRef({ data, completedStep });
  const pending = useRef(false);
  const closed = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const failures = useRef(0);
  /** Saved on the server already, or something beyond the organisation entered. */
  const worthSaving = useRef(mayAutosave({ isSaved: initial?.isSaved ?? false, entered: false }));
  const retry = useRef<() => void>(() => undefined);
  const ctx = useMemo(() => wizardContextOf(senderData), [senderData]);
  const ctxRef = useRef(ctx);
  ctxRef.current = ctx;

  const saveNow = useCallback(async (): Promise<boolean> => {
    clearTimeout(timer.current);
    if (closed.current) return true;
    worthSaving.current = true;
    pending.current = false;
    setSave({ state: 'saving' });
    try {
      const answer = await api.call(saveDraftRoute, { params: { draftId }, body: latest.current });
      failures.current = 0;
      setSave(pending.current ? { state: 'saving' } : { state: 'idle', savedAt: answer.savedAt });
      return true;
    } catch (error) {
      pending.current = true;
      const retrying = isPassingFailure(error) && !closed.current;
      setSave({ state: 'failed', message: error instanceof Error ? error.message : String(error), retrying });
      if (retrying) {
        // Nobody has to type again for the draft to be saved; a change meanwhile saves sooner.
        failures.current += 1;
        clearTimeout(timer.current);
        timer.current = setTimeout(() => retry.current(), retryDelayMs(failures.current));
      }
      return false;
    }
  }, [api, draftId]);
  retry.current = () => void saveNow();

  const schedule = useCallback(() => {
    pending.current = true;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void saveNow(), AUTOSAVE_MS);
  }, [saveNow]);

  /** `entered`: the user entered it (the organisation and its defaults are not). */
  const commitState = useCallback(
    (next: DraftData, completed: number, entered: boolean) => {
      const reconciled = reconcileCompletedStep(completed, next, ctxRef.current);
      latest.current = { data: next, completedStep: reconciled };
      setData(next);
      setCompletedStep(reconciled);
      worthSaving.current = mayAutosave({ isSaved: worthSaving.current, entered });
      if (worthSaving.current) schedule();
    },
    [schedule],
  );

  /** Changes the data; the completed step falls back when an earlier step lost a required field. */
  const update = useCallback(
    (change: (d: DraftData) => DraftData) =>
      commitState(change(latest.current.data), latest.current.completedStep, true),
    [commitState],
  );

  const advanceTo = useCallback((completed: number) => {
    latest.current = { ...latest.current, completedStep: completed };
    setCompletedStep(completed);
    pending.current = true;
  }, []);

  const loadSender = useCallback(
    async (organization: string) => {
      setSenderStatus({ state: 'loading' });
      try {
        const loaded = await api.call(senderDataRoute, { params: { organization } });
        if (latest.current.data.sender?.organization !== organization) return;
        setSenderData(loaded);
        ctxRef.current = wizardContextOf(loaded);
        setSenderStatus({ state: 'idle' });
        commitState(applySenderData(latest.current.data, loaded), latest.current.completedStep, false);
      } catch (error) {
        setSenderData(null);
        setSenderStatus({ state: 'failed', message: error instanceof Error ? error.message : String(error) });
      }
    },
    [api, commitState],
  );

  const chooseOrganization = useCallback(
    (organization: string | null) => {
      const d = latest.current.data;
      commitState(
        { ...d, sender: { ...d.sender, organization: organization ?? '' } },
        latest.current.completedStep,
        false,
      );
      if (organization) void loadSender(organization);
      else setSenderData(null);
    },
    [commitState, loadSender],
  );

  // A user who may submit for one organisation only finds it chosen (issue 22 item 12). Nothing is
  // saved until they change something or go on, so opening the wizard alone leaves no draft.
  const only = organizations.length === 1 ? organizations[0]?.scopePath : undefined;
  useEffect(() => {
    if (!only || latest.current.data.sender?.organization) return;
    const next = { ...latest.current.data, sender: { ...latest.current.data.sender, organization: only } };
    latest.current = { ...latest.current, data: next };
    setData(next);
    // Loading the sender's data is not an entry of the user's: it does not make the draft worth saving.
    void loadSender(only);
  }, [only, loadSender]);

  /** Stops saving: the draft was submitted or discarded. */
  const close = useCallback(() => {
    closed.current = true;
    pending.current = false;
    clearTimeout(timer.current);
  }, []);

  /** Saving again, after a submission that failed. */
  const resume = useCallback(() => {
    closed.current = false;
  }, []);

  // Whatever is still pending when the page is left goes out with a keepalive request.
  useEffect(() => {
    const flush = () => {
      if (!pending.current || closed.current || !worthSaving.current) return;
      pending.current = false;
      // The page is going: a failure has nobody left to be shown to.
      api
        .call(saveDraftRoute, { params: { draftId }, body: latest.current }, { keepalive: true })
        .catch(() => undefined);
    };
    // Back online, a save that failed goes out at once instead of at its next retry.
    const online = () => {
      if (pending.current && !closed.current && failures.current > 0) retry.current();
    };
    window.addEventListener('pagehide', flush);
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('pagehide', flush);
      window.removeEventListener('online', online);
      clearTimeout(timer.current);
      flush();
    };
  }, [api, draftId]);

  return {
    data,
    completedStep,
    ctx,
    senderData,
    senderStatus,
    save,
    update,
    advanceTo,
    saveNow,
    chooseOrganization,
    close,
    resume,
    isPending: () => pending.current,
  };
}

export type WizardDraft = ReturnType<typeof useWizardDraft>;
