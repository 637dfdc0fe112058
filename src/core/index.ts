/** Tessera core: pure rules shared by server, template engine and browser. */
export * from './money';
export * from './messages';
export * from './enums';
export * from './product';
export * from './cart';
export * from './instalments';
export * from './forms';
export * from './restock';
export * from './cookies';
export * from './slug';
export * from './subscription';
export * from './colour';
export * from './time';
export * from './constants';
export * from './image';
export * from './content';
export * from './html';
