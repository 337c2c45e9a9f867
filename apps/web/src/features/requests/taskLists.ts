import type { RequestView } from '@dossier/core';

// The request page's two task lists (Tasks and Tasks (Recipient)): the server
// sends every task and, apart, those about the recipient (issuing, confirming, following up,
// appointments). Each task is shown once: Tasks (Recipient) lists the recipient's, Tasks the rest.

export function tasksOutsideRecipient(view: Pick<RequestView, 'tasks' | 'recipientTasks'>) {
  const recipient = new Set(view.recipientTasks.map((task) => task.taskId));
  return view.tasks.filter((task) => !recipient.has(task.taskId));
}
