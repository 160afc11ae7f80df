export * from './permissions';
export * from './messages';
export * from './validation';
export * from './constants';
export * from './errors';
