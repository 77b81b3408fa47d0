import { describe, expect, it } from 'vitest';
import { localAddress } from '../../src/service.js';

// Where `/web` links point without PUBLIC_BASE_URL: the host the HTTP server listens on, loopback for a wildcard.

describe('localAddress', () => {
  it('reaches a wildcard on loopback, and a named host or IPv6 address as it is', () => {
    expect(localAddress('127.0.0.1', 3000)).toBe('http://127.0.0.1:3000');
    expect(localAddress('0.0.0.0', 3000)).toBe('http://127.0.0.1:3000');
    expect(localAddress('::', 8080)).toBe('http://127.0.0.1:8080');
    expect(localAddress('192.168.1.5', 3000)).toBe('http://192.168.1.5:3000');
    expect(localAddress('::1', 3000)).toBe('http://[::1]:3000');
  });
});
