import { cacheDirectives } from './cache-control';

describe('Cache-Control on a request', () => {
  it('reads and writes by default', () => {
    expect(cacheDirectives(undefined)).toEqual({ read: true, write: true });
    expect(cacheDirectives('max-age=60')).toEqual({ read: true, write: true });
  });

  it('no-cache (and max-age=0) skips the read but stores the fresh answer', () => {
    expect(cacheDirectives('no-cache')).toEqual({ read: false, write: true });
    expect(cacheDirectives('No-Cache')).toEqual({ read: false, write: true });
    expect(cacheDirectives('max-age=0')).toEqual({ read: false, write: true });
  });

  it('no-store neither reads nor writes, wherever it is in the list', () => {
    expect(cacheDirectives('private, no-store')).toEqual({ read: false, write: false });
    expect(cacheDirectives(['no-cache', 'no-store'])).toEqual({ read: false, write: false });
  });
});
