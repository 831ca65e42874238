import { eventTopics, payloadClassOf, requestTopics } from './contract-map';
import { Topics } from './topics';

describe('contracts', () => {
  it('names every topic <domain>.<command|query|event>.<name>.v<n>', () => {
    for (const topic of Object.values(Topics)) expect(topic).toMatch(/^[a-z-]+\.(command|query|event)\.[a-z-]+\.v\d+$/);
  });

  it('gives every topic exactly one payload class and one kind', () => {
    const all = [...requestTopics, ...eventTopics];
    expect(new Set(all).size).toBe(Object.values(Topics).length);
    for (const topic of all) expect(typeof payloadClassOf(topic)).toBe('function');
    for (const topic of eventTopics) expect(topic).toContain('.event.');
    for (const topic of requestTopics) expect(topic).not.toContain('.event.');
  });
});
