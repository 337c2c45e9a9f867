import { describe, expect, it } from 'vitest';
import { buildMenu, permissionsOfRoles } from '../src/index.js';

const keys = (permissions: string[], features = {}) =>
  buildMenu(permissions, features).flatMap((s) => s.entries.map((e) => `${s.key}/${e.key}`));

describe('permissions and the menu', () => {
  it('gives the admin every permission and a submitter only its own', () => {
    expect(permissionsOfRoles(['c:roles:admin'])).toContain('configuration:view');
    expect(permissionsOfRoles(['c:roles:submitter'])).toEqual([
      'request:submit',
      'request:view',
      'request:view:content',
      'file:view:markAsDownloaded',
    ]);
    expect(permissionsOfRoles(['unknown'])).toEqual([]);
  });

  it('lets only the admin read the outbox and queue a failed mail again', () => {
    expect(permissionsOfRoles(['c:roles:admin'])).toEqual(expect.arrayContaining(['mail:view', 'mail:edit']));
    for (const role of ['c:roles:manager', 'c:roles:handler', 'c:roles:submitter', 'c:roles:external']) {
      expect(permissionsOfRoles([role])).not.toContain('mail:view');
      expect(permissionsOfRoles([role])).not.toContain('mail:edit');
    }
  });

  it('lets managers and administrators hold a request, and only administrators run retention and erase', () => {
    for (const role of ['c:roles:admin', 'c:roles:manager'])
      expect(permissionsOfRoles([role])).toContain('request:legalHold');
    for (const role of ['c:roles:handler', 'c:roles:submitter', 'c:roles:external'])
      expect(permissionsOfRoles([role])).not.toContain('request:legalHold');
    expect(permissionsOfRoles(['c:roles:admin'])).toContain('retention:manage');
    for (const role of ['c:roles:manager', 'c:roles:handler', 'c:roles:submitter', 'c:roles:external'])
      expect(permissionsOfRoles([role])).not.toContain('retention:manage');
  });

  it('unites the permissions of several roles without repeats', () => {
    const both = permissionsOfRoles(['c:roles:submitter', 'c:roles:external']);
    expect(new Set(both).size).toBe(both.length);
  });

  it('shows each entry only with its permissions', () => {
    expect(keys(['request:submit'])).toEqual([
      'main/dashboard',
      'main/newRequest',
      'help/help',
      'help/contact',
    ]);
    expect(keys(['reports:view'])).not.toContain('reports/users');
    expect(keys(['reports:view', 'user:view'])).toContain('reports/users');
    expect(keys(['user:view'])).toContain('administration/users');
    expect(keys(['mail:view'])).toContain('administration/outbox');
    expect(keys(['user:view'])).not.toContain('administration/outbox');
    expect(keys(['task:skills'])).toEqual(
      expect.arrayContaining(['workflow/taskSkillLevels', 'workflow/taskSkillStatus']),
    );
  });

  it('needs the download-tracking feature for Download Files and Request Results', () => {
    const perms = ['file:view:markAsDownloaded', 'request:view:content', 'reports:view'];
    expect(keys(perms)).not.toContain('main/downloadFiles');
    expect(keys(perms)).not.toContain('reports/requestResults');
    expect(keys(perms, { resultFileDownloadTracking: true })).toEqual(
      expect.arrayContaining(['main/downloadFiles', 'reports/requestResults']),
    );
  });

  it('gives the admin a larger menu than a submitter', () => {
    const admin = keys(permissionsOfRoles(['c:roles:admin']));
    const submitter = keys(permissionsOfRoles(['c:roles:submitter']));
    expect(admin).toContain('administration/configuration');
    expect(submitter).not.toContain('administration/users');
    expect(admin.length).toBeGreaterThan(submitter.length);
  });
});
