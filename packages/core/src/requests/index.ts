export * from '../requestNumber.js';
export * from './model.js';
export * from './tags.js';
export * from './views.js';
