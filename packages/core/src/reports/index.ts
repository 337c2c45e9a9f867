export * from './columns.js';
export * from './csv.js';
