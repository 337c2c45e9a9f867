import { lazy } from 'react';
import { accountPages } from '../features/account/pages';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { DownloadFilesPage } from '../features/downloads/DownloadFilesPage';
import { HomePage } from '../features/home/HomePage';
import { InboxMessagePage } from '../features/inbox/InboxMessagePage';
import { InboxPage } from '../features/inbox/InboxPage';
import { InvalidUrlPage } from '../features/invalidUrl/InvalidUrlPage';
import { AdminOutboxPage } from '../features/outbox/AdminOutboxPage';
import { OutboxMessagePage } from '../features/outbox/OutboxMessagePage';
import { ForgotPasswordPage } from '../features/passwordReset/ForgotPasswordPage';
import { SetPasswordPage } from '../features/passwordReset/SetPasswordPage';
import { ReportPage } from '../features/reports/ReportPage';
import { FindRequestsPage } from '../features/requestSearch/FindRequestsPage';
import { InvoicePage } from '../features/requests/invoices/InvoicePage';
import { RequestPage } from '../features/requests/RequestPage';
import { ResultPage } from '../features/requests/results/ResultPage';
import { RichTextPage } from '../features/richTextPage/RichTextPage';
import { SelectRecipientPage } from '../features/selectRecipient/SelectRecipientPage';
import { SignInPage } from '../features/signin/SignInPage';
import { TaskSkillsPage } from '../features/skills/TaskSkillsPage';
import { SsoErrorPage } from '../features/sso/SsoErrorPage';
import { SsoReauthenticatedPage } from '../features/sso/SsoReauthenticatedPage';
import { UnknownViewPage } from '../features/unknown/UnknownViewPage';
import { wizardPages } from '../features/wizard/pages';
import type { PageComponent } from './page';

// The configuration editors carry the rich text editor and the PDF tooling: loaded on first use.
const ConfigurationListPage = lazy(() =>
  import('../features/configuration/ConfigurationListPage').then((m) => ({
    default: m.ConfigurationListPage,
  })),
) as PageComponent;
const ConfigurationEntryPage = lazy(() =>
  import('../features/configuration/EntryPage').then((m) => ({ default: m.EntryPage })),
) as PageComponent;

/** The page component of each view $type. Features add their pages here. */
export const pages: Record<string, PageComponent> = {
  signin: SignInPage,
  home: HomePage,
  richTextPage: RichTextPage,
  invalidUrl: InvalidUrlPage,
  forgotPassword: ForgotPasswordPage,
  setPassword: SetPasswordPage,
  ssoError: SsoErrorPage,
  ssoReauthenticated: SsoReauthenticatedPage,
  configurationList: ConfigurationListPage,
  configurationEntry: ConfigurationEntryPage,
  request: RequestPage,
  requestResult: ResultPage,
  requestInvoice: InvoicePage,
  ...accountPages,
  findRequests: FindRequestsPage,
  selectRecipient: SelectRecipientPage,
  ...wizardPages,
  dashboard: DashboardPage,
  downloadFiles: DownloadFilesPage,
  report: ReportPage,
  taskSkills: TaskSkillsPage,
  inbox: InboxPage,
  inboxMessage: InboxMessagePage,
  adminOutbox: AdminOutboxPage,
  adminOutboxMessage: OutboxMessagePage,
};

export function pageOf(type: string): PageComponent {
  return Object.hasOwn(pages, type) ? pages[type] : UnknownViewPage;
}
