import type { Permission } from './permissions.js';
import type { Features } from './userState.js';

// The menu of the product: each entry with the permissions it needs.
// The client renders it; the server refuses the pages anyway when the permission is missing.

export interface MenuEntry {
  key: string;
  path: string;
}
export interface MenuSection {
  key: string;
  entries: MenuEntry[];
}

interface Rule {
  section: string;
  entry: MenuEntry;
  needs: Permission[];
  feature?: keyof Features;
}

const RULES: Rule[] = [
  { section: 'main', entry: { key: 'dashboard', path: '/dashboard' }, needs: [] },
  { section: 'main', entry: { key: 'newRequest', path: '/requests/new' }, needs: ['request:submit'] },
  { section: 'main', entry: { key: 'findRequests', path: '/requests/find' }, needs: ['request:view'] },
  { section: 'main', entry: { key: 'inbox', path: '/inbox' }, needs: ['inbox'] },
  {
    section: 'main',
    entry: { key: 'downloadFiles', path: '/results/download-files' },
    needs: ['file:view:markAsDownloaded', 'request:view:content'],
    feature: 'resultFileDownloadTracking',
  },
  {
    section: 'workflow',
    entry: { key: 'taskSkillLevels', path: '/tasks/skills/levels' },
    needs: ['task:skills'],
  },
  {
    section: 'workflow',
    entry: { key: 'taskSkillStatus', path: '/tasks/skills/status' },
    needs: ['task:skills'],
  },
  {
    section: 'reports',
    entry: { key: 'completedTasks', path: '/reports/tasks/completed' },
    needs: ['reports:view'],
  },
  {
    section: 'reports',
    entry: { key: 'activeTasks', path: '/reports/tasks/active?filter.date=triggeredAt' },
    needs: ['reports:view'],
  },
  {
    section: 'reports',
    entry: { key: 'closedRequests', path: '/reports/requests/closed' },
    needs: ['reports:view'],
  },
  {
    section: 'reports',
    entry: { key: 'openRequests', path: '/reports/requests/open' },
    needs: ['reports:view'],
  },
  {
    section: 'reports',
    entry: { key: 'paidInvoices', path: '/reports/invoices/paid' },
    needs: ['reports:view'],
  },
  {
    section: 'reports',
    entry: { key: 'requestResults', path: '/reports/request-results' },
    needs: ['reports:view'],
    feature: 'resultFileDownloadTracking',
  },
  {
    section: 'reports',
    entry: { key: 'users', path: '/reports/users' },
    needs: ['reports:view', 'user:view'],
  },
  // Ours (issue 36): who read which request's personal data.
  {
    section: 'reports',
    entry: { key: 'accessLog', path: '/reports/access-log' },
    needs: ['reports:view'],
  },
  { section: 'administration', entry: { key: 'users', path: '/admin/users' }, needs: ['user:view'] },
  {
    section: 'administration',
    entry: { key: 'recipients', path: '/admin/recipients' },
    needs: ['recipient:view'],
  },
  { section: 'administration', entry: { key: 'payees', path: '/admin/payees' }, needs: ['payee:view'] },
  {
    section: 'administration',
    entry: { key: 'configuration', path: '/admin/configuration' },
    needs: ['configuration:view'],
  },
  { section: 'administration', entry: { key: 'outbox', path: '/admin/outbox' }, needs: ['mail:view'] },
  {
    section: 'administration',
    entry: { key: 'retention', path: '/admin/retention' },
    needs: ['retention:manage'],
  },
  { section: 'help', entry: { key: 'help', path: '/help' }, needs: [] },
  { section: 'help', entry: { key: 'contact', path: '/contact' }, needs: [] },
];

/** The menu a user with these permissions and features sees; empty sections are left out. */
export function buildMenu(permissions: readonly string[], features: Features): MenuSection[] {
  const sections: MenuSection[] = [];
  for (const rule of RULES) {
    if (!rule.needs.every((p) => permissions.includes(p))) continue;
    if (rule.feature && !features[rule.feature]) continue;
    let section = sections.find((s) => s.key === rule.section);
    if (!section) {
      section = { key: rule.section, entries: [] };
      sections.push(section);
    }
    section.entries.push(rule.entry);
  }
  return sections;
}
