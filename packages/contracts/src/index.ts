export * from './permissions';
export * from './messages';
export * from './validation';
export * from './constants';
export * from './errors';
export * from './schemas/msp';
export * from './schemas/roles';
export * from './schemas/accounts';
