export const KAFKA_BUS_OPTIONS = Symbol('KAFKA_BUS_OPTIONS');
