export * from './tenancy';
export * from './auth';
export * from './psa';
export * from './teams';
