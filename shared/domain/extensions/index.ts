export * from './actions';
export * from './binding';
export * from './default-bindings';
export * from './signing';
