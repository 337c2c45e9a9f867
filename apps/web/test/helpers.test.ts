import { describe, expect, it } from 'vitest';
import { pageOf, pages } from '../src/pages';
import { displayErrorMessage } from '../src/shell/ErrorBanner';
import { menuTestId } from '../src/shell/Menu';
import { formatDueDate } from '../src/shell/tasks/TasksOverlay';
import { shouldBlockDrop } from '../src/ui/dropGuard';
import { replaceByTaskId } from '../src/view/replaceByTaskId';

describe('shell helpers', () => {
  it('shows an empty error message as Unspecified Server Error', () => {
    expect(displayErrorMessage('', 'Unspecified Server Error')).toBe('Unspecified Server Error');
    expect(displayErrorMessage('500: ', 'Unspecified Server Error')).toBe('500: Unspecified Server Error');
    expect(displayErrorMessage('404: Gone', 'Unspecified Server Error')).toBe('404: Gone');
  });

  it('shows the no-due-date day as an infinite mark', () => {
    expect(formatDueDate('9999-12-31T00:00:00Z', 'en-au')).toBe('∞');
    expect(formatDueDate('2026-11-25T00:00:00Z', 'en-au')).toMatch(/2026/);
    expect(formatDueDate(null, 'en-au')).toBe('');
  });

  it('gives menu entries stable test ids', () => {
    expect(menuTestId('main', 'inbox')).toBe('menu-link-inbox');
    expect(menuTestId('reports', 'users')).toBe('menu-link-reports-users');
    expect(menuTestId('administration', 'users')).toBe('menu-link-administration-users');
  });

  it('picks the page by $type with a fallback', () => {
    expect(pageOf('signin')).toBe(pages.signin);
    expect(pageOf('toString')).not.toBe(pages.signin);
    expect(pageOf('nope')).toBe(pageOf('anotherUnknown'));
  });

  it('blocks non-image files and links outside drop areas', () => {
    const outside = { closest: () => null };
    const inside = { closest: () => ({}) };
    const pdf = { items: [{ kind: 'file', type: 'application/pdf' }], types: ['Files'] };
    const png = { items: [{ kind: 'file', type: 'image/png' }], types: ['Files'] };
    const link = { items: [{ kind: 'string', type: 'text/uri-list' }], types: ['text/uri-list'] };
    const text = { items: [{ kind: 'string', type: 'text/plain' }], types: ['text/plain'] };
    expect(shouldBlockDrop(outside, pdf)).toBe(true);
    expect(shouldBlockDrop(outside, link)).toBe(true);
    expect(shouldBlockDrop(outside, png)).toBe(false);
    expect(shouldBlockDrop(outside, text)).toBe(false);
    expect(shouldBlockDrop(inside, pdf)).toBe(false);
    expect(shouldBlockDrop(inside, link)).toBe(false);
  });

  it('replaces nested objects by taskId and keeps unchanged branches', () => {
    const other = { list: [{ taskId: 'x' }] };
    const view = { $type: 'v', other, deep: { tasks: [{ taskId: 't', a: 1 }] } };
    const out = replaceByTaskId(view, { taskId: 't', a: 2, $type: 'workflowTask' });
    expect(out.deep.tasks[0]).toEqual({ taskId: 't', a: 2, $type: 'workflowTask' });
    expect(out.other).toBe(other);
    expect(replaceByTaskId(view, { taskId: 'none' })).toBe(view);
  });
});
