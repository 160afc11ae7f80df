export * from './tenancy';
export * from './auth';
export * from './psa';
export * from './uploads';
export * from './boards';
export * from './teams';
export * from './sync';
export * from './psa-outbox';
