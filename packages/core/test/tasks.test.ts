import { describe, expect, it } from 'vitest';
import {
  ADDABLE_TASK_TYPES,
  isSenderTaskType,
  SENDER_TASK_TYPES,
  TRAINABLE_TASK_TYPES,
  WORKFLOW_TASK_TYPES,
} from '../src/tasks.js';

// The task type sets of the spec ("Addable: all except senderUrgentNote, classifyIncomingMessage,
// fallback. Trainable: all except senderActionRequired") and the sender's tasks derived from them.

describe('task type sets', () => {
  it('splits every type into trainable (staff) and the sender’s own', () => {
    expect(SENDER_TASK_TYPES).toEqual(['senderActionRequired']);
    expect([...TRAINABLE_TASK_TYPES, ...SENDER_TASK_TYPES].sort()).toEqual([...WORKFLOW_TASK_TYPES].sort());
  });

  it('tells the sender’s tasks apart, unknown types included', () => {
    expect(isSenderTaskType('senderActionRequired')).toBe(true);
    for (const type of ['senderActionResponse', 'senderUrgentNote', 'fallback', 'nonsense', ''])
      expect(isSenderTaskType(type)).toBe(false);
  });

  it('lets a handler add the sender’s task (it is addable, though nobody on staff takes it)', () => {
    expect(ADDABLE_TASK_TYPES).toContain('senderActionRequired');
    expect(ADDABLE_TASK_TYPES).not.toContain('fallback');
  });
});
