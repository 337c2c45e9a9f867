import type { Features, InitialState, UserState, View } from '@dossier/core';
import { type Api, api as defaultApi } from '../api';
import { createStore, type Store } from '../view/createStore';
import { createViewStore, type ViewStore } from '../view/viewStore';
import { createNotificationsStore, type NotificationsStore } from './notifications/notificationsStore';
import { createTasksStore, type TasksStore } from './tasks/tasksStore';

export interface SessionState {
  user: UserState | null;
  features: Features;
  locale: string;
}

/** Everything the shell shares; created once at start and handed down by context. */
export interface Services {
  api: Api;
  session: Store<SessionState>;
  view: ViewStore;
  notifications: NotificationsStore;
  tasks: TasksStore;
}

export function createServices(initial: InitialState, path: string, api: Api = defaultApi): Services {
  return {
    api,
    session: createStore<SessionState>({
      user: initial.user,
      features: initial.features ?? {},
      locale: initial.locale,
    }),
    view: createViewStore(
      { path, view: initial.view },
      { get: (p) => api.get<View>(p), post: (p, body) => api.post<View>(p, body) },
    ),
    notifications: createNotificationsStore(api),
    tasks: createTasksStore(api),
  };
}
