export * from '../requestNumber.js';
export * from './model.js';
export * from './views.js';
