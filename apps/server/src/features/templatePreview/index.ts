// The template editor's preview with a real request: registered by app.ts; no feature uses it.
export { templatePreviewRoutes } from './routes.js';
