export * from './platform.js';
export * from './content.js';
export * from './commerce.js';
export * from './jobs.js';
export * from './forms.js';
export * from './checkout.js';
export * from './restock.js';
export * from './analytics.js';
