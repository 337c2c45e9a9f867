import { accountPages } from './features/account/pages';
import { HomePage } from './features/home/HomePage';
import { InvalidUrlPage } from './features/invalidUrl/InvalidUrlPage';
import { payeesPages } from './features/payees/pages';
import { recipientsPages } from './features/recipients/pages';
import { RichTextPage } from './features/richTextPage/RichTextPage';
import { SignInPage } from './features/signin/SignInPage';
import { UnknownViewPage } from './features/unknown/UnknownViewPage';
import { usersPages } from './features/users/pages';
import { wizardPages } from './features/wizard/pages';
import { lazyPage, type PageComponent } from './view/page';

// Every page but those a first visit may land on is loaded on first use (issue 15: the first
// load carries the shell and the page shown, each page its own chunk).
const ConfigurationListPage = lazyPage(
  () => import('./features/configuration/ConfigurationListPage'),
  (m) => m.ConfigurationListPage,
);
const ConfigurationEntryPage = lazyPage(
  () => import('./features/configuration/EntryPage'),
  (m) => m.EntryPage,
);
const DashboardPage = lazyPage(
  () => import('./features/dashboard/DashboardPage'),
  (m) => m.DashboardPage,
);
const DownloadFilesPage = lazyPage(
  () => import('./features/downloads/DownloadFilesPage'),
  (m) => m.DownloadFilesPage,
);
const InboxMessagePage = lazyPage(
  () => import('./features/inbox/InboxMessagePage'),
  (m) => m.InboxMessagePage,
);
const InboxPage = lazyPage(
  () => import('./features/inbox/InboxPage'),
  (m) => m.InboxPage,
);
const AdminOutboxPage = lazyPage(
  () => import('./features/outbox/AdminOutboxPage'),
  (m) => m.AdminOutboxPage,
);
const OutboxMessagePage = lazyPage(
  () => import('./features/outbox/OutboxMessagePage'),
  (m) => m.OutboxMessagePage,
);
const AdminRetentionPage = lazyPage(
  () => import('./features/retention/AdminRetentionPage'),
  (m) => m.AdminRetentionPage,
);
const AdminErasurePage = lazyPage(
  () => import('./features/retention/AdminErasurePage'),
  (m) => m.AdminErasurePage,
);
const ForgotPasswordPage = lazyPage(
  () => import('./features/passwordReset/ForgotPasswordPage'),
  (m) => m.ForgotPasswordPage,
);
const SetPasswordPage = lazyPage(
  () => import('./features/passwordReset/SetPasswordPage'),
  (m) => m.SetPasswordPage,
);
const RecipientPage = lazyPage(
  () => import('./features/recipientPage/RecipientPage'),
  (m) => m.RecipientPage,
);
const ReportPage = lazyPage(
  () => import('./features/reports/ReportPage'),
  (m) => m.ReportPage,
);
const FindRequestsPage = lazyPage(
  () => import('./features/requestSearch/FindRequestsPage'),
  (m) => m.FindRequestsPage,
);
const InvoicePage = lazyPage(
  () => import('./features/requests/invoices/InvoicePage'),
  (m) => m.InvoicePage,
);
const RequestPage = lazyPage(
  () => import('./features/requests/RequestPage'),
  (m) => m.RequestPage,
);
const ResultPage = lazyPage(
  () => import('./features/requests/results/ResultPage'),
  (m) => m.ResultPage,
);
const SelectRecipientPage = lazyPage(
  () => import('./features/selectRecipient/SelectRecipientPage'),
  (m) => m.SelectRecipientPage,
);
const TaskSkillsPage = lazyPage(
  () => import('./features/skills/TaskSkillsPage'),
  (m) => m.TaskSkillsPage,
);
const SsoErrorPage = lazyPage(
  () => import('./features/sso/SsoErrorPage'),
  (m) => m.SsoErrorPage,
);
const SsoReauthenticatedPage = lazyPage(
  () => import('./features/sso/SsoReauthenticatedPage'),
  (m) => m.SsoReauthenticatedPage,
);

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
  ...usersPages,
  ...recipientsPages,
  ...payeesPages,
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
  adminRetention: AdminRetentionPage,
  adminErasure: AdminErasurePage,
  recipientPage: RecipientPage,
};

export function pageOf(type: string): PageComponent {
  return (Object.hasOwn(pages, type) ? pages[type] : undefined) ?? UnknownViewPage;
}
