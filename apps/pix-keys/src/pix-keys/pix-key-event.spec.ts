import { Topics } from '@partner/contracts';
import { stateChanged } from './pix-key-event';
import { PixKey } from './pix-key.repository';
import { registeredPixKey } from './pix-key.spec-support';

// Times with milliseconds: the event's occurred_at keeps them, the resource's times are whole seconds.
const key = (overrides: Partial<PixKey> = {}): PixKey =>
  registeredPixKey({ createdAt: new Date('2026-11-24T10:00:00.900Z'), updatedAt: new Date('2026-11-24T10:00:05.100Z'), ...overrides });

describe('stateChanged', () => {
  it('reports the key in its current state on the pix-key topic, with the snapshot partners read', () => {
    const message = stateChanged(key());
    expect(message.topic).toBe(Topics.PixKeyStateChanged);
    expect(message.payload).toMatchObject({
      partner_id: 'c6b0f8f6-3f6e-4d38-9d7f-5d1c3a9b2f10',
      type: 'pix_key',
      state: 'registered',
      resource_id: '0b7f6c1e-2a41-4c55-9a7e-3e2d0f1b9c8d',
      occurred_at: '2026-11-24T10:00:05.100Z',
      resource: {
        key_type: 'cpf',
        key: '52998224725',
        state: 'registered',
        failure_reason: null,
        created_at: 1795514400,
        last_updated_at: 1795514405,
      },
    });
    expect(message.payload.event_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keys every event of one user alike, so a canceled key and its successor reach the feed in order', () => {
    const first = stateChanged(key({ id: 'a', state: 'canceled' }));
    const second = stateChanged(key({ id: 'b', state: 'pending' }));
    expect(first.key).toBe(second.key);
    expect(stateChanged(key({ document: '11144477735' })).key).not.toBe(first.key);
  });
});
