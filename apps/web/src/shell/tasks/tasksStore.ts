import { type AssignedTask, applyTaskPush, assignedTasksRoute } from '@dossier/core';
import type { Api } from '../../api';
import { createStore, type Store } from '../../view/createStore';

export interface TasksState {
  tasks: AssignedTask[];
  /** Whether the assigned-tasks overlay is shown. */
  visible: boolean;
}

export interface TasksStore extends Store<TasksState> {
  load(): Promise<void>;
  push(task: AssignedTask, userId: string): void;
  clear(): void;
  toggle(visible?: boolean): void;
}

export function createTasksStore(api: Api, log: Pick<Console, 'error'> = console): TasksStore {
  const store = createStore<TasksState>({ tasks: [], visible: false });
  return {
    ...store,
    async load() {
      try {
        const answer = await api.call(assignedTasksRoute, {});
        store.set({ tasks: answer.tasks ?? [] });
      } catch (error) {
        log.error('Loading assigned tasks failed', error);
      }
    },
    push: (task, userId) => store.set((s) => ({ tasks: applyTaskPush(s.tasks, task, userId) })),
    clear: () => store.set({ tasks: [] }),
    toggle: (visible) => store.set((s) => ({ visible: visible ?? !s.visible })),
  };
}
