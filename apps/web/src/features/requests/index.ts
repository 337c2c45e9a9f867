// What other pages use of the request pages.

export { TagSelects } from './actions/TagSelects';
export { RequestHoverPreview } from './RequestHoverPreview';
export { Field } from './results/ResultPage';
export { StatusBadge } from './results/StatusBadge';
export { TaskList } from './TaskList';
