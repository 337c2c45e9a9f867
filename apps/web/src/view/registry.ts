import { accountPages } from '../features/account/pages';
import { ConfigurationListPage } from '../features/configuration/ConfigurationListPage';
import { EntryPage as ConfigurationEntryPage } from '../features/configuration/EntryPage';
import { HomePage } from '../features/home/HomePage';
import { InvalidUrlPage } from '../features/invalidUrl/InvalidUrlPage';
import { RichTextPage } from '../features/richTextPage/RichTextPage';
import { SignInPage } from '../features/signin/SignInPage';
import { SsoErrorPage } from '../features/sso/SsoErrorPage';
import { SsoReauthenticatedPage } from '../features/sso/SsoReauthenticatedPage';
import { UnknownViewPage } from '../features/unknown/UnknownViewPage';
import type { PageComponent } from './page';

/** The page component of each view $type. Features add their pages here. */
export const pages: Record<string, PageComponent> = {
  signin: SignInPage,
  home: HomePage,
  richTextPage: RichTextPage,
  invalidUrl: InvalidUrlPage,
  ssoError: SsoErrorPage,
  ssoReauthenticated: SsoReauthenticatedPage,
  configurationList: ConfigurationListPage,
  configurationEntry: ConfigurationEntryPage,
  ...accountPages,
};

export function pageOf(type: string): PageComponent {
  return Object.hasOwn(pages, type) ? pages[type] : UnknownViewPage;
}
