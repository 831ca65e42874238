import { loadConfig, ServiceConfig } from '@partner/config';
import { EventsConfig } from './events.config';

describe('EventsConfig', () => {
  // A held fetch returns empty every few milliseconds while idle (CPU spent in the broker and the
  // service for nothing), so only the projector, which gets three events per withdrawal, holds its
  // fetches by default.
  it('holds the projector fetches 100 ms by default, where other services answer with the first event', () => {
    expect(loadConfig(EventsConfig, {}).KAFKA_EVENT_FETCH_WAIT_MS).toBe(100);
    expect(loadConfig(ServiceConfig, {}).KAFKA_EVENT_FETCH_WAIT_MS).toBe(0);
  });

  it('takes the hold from the environment and refuses one out of range', () => {
    expect(loadConfig(EventsConfig, { KAFKA_EVENT_FETCH_WAIT_MS: '0' }).KAFKA_EVENT_FETCH_WAIT_MS).toBe(0);
    expect(() => loadConfig(EventsConfig, { KAFKA_EVENT_FETCH_WAIT_MS: '5000' })).toThrow(/KAFKA_EVENT_FETCH_WAIT_MS/);
  });
});
