import type { RequestTaskItem } from '@dossier/core';
import { describe, expect, it } from 'vitest';
import { tasksOutsideRecipient } from '../src/features/requests/taskLists';

// Issue 20: Tasks (Recipient) repeated rows of Tasks. Each task is now listed once.

const task = (taskId: string, type: string) => ({ taskId, type }) as RequestTaskItem;

describe('the request page task lists', () => {
  it('lists a recipient task under Tasks (Recipient) only', () => {
    const issue = task('1', 'issueRequest');
    const followUp = task('2', 'followUp');
    const qa = task('3', 'qualityAssureResult');
    const view = { tasks: [qa, followUp, issue], recipientTasks: [followUp, issue] };
    expect(tasksOutsideRecipient(view)).toEqual([qa]);
    expect(tasksOutsideRecipient({ tasks: [qa], recipientTasks: [] })).toEqual([qa]);
  });
});
