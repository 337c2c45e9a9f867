import { lazy } from 'react';
import { accountPages } from '../features/account/pages';
import { HomePage } from '../features/home/HomePage';
import { InvalidUrlPage } from '../features/invalidUrl/InvalidUrlPage';
import { ForgotPasswordPage } from '../features/passwordReset/ForgotPasswordPage';
import { SetPasswordPage } from '../features/passwordReset/SetPasswordPage';
import { RichTextPage } from '../features/richTextPage/RichTextPage';
import { SignInPage } from '../features/signin/SignInPage';
import { SsoErrorPage } from '../features/sso/SsoErrorPage';
import { SsoReauthenticatedPage } from '../features/sso/SsoReauthenticatedPage';
import { UnknownViewPage } from '../features/unknown/UnknownViewPage';
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
  ...accountPages,
};

export function pageOf(type: string): PageComponent {
  return Object.hasOwn(pages, type) ? pages[type] : UnknownViewPage;
}
