export const KAFKA_CLIENT = Symbol('KAFKA_CLIENT');
export const KAFKA_BUS_OPTIONS = Symbol('KAFKA_BUS_OPTIONS');
