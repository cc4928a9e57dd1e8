import { describe, expect, it } from 'vitest';
import { providedShared, singletonRule } from './federation-host';
import { lazySharedModules, sharedModules } from './shared-modules';

describe('the singletons the shell provides to remotes', () => {
  it('gives every module the shell hands over the version and rules of @dealer/build’s sharedSingletons', () => {
    const shared = providedShared(__SHARED_SINGLETONS__);
    expect(Object.keys(shared).sort()).toEqual(
      [...Object.keys(sharedModules), ...Object.keys(lazySharedModules), '@dealer/ui/styles.css'].sort(),
    );
    expect(shared['react/jsx-runtime']).toMatchObject({
      version: __SHARED_SINGLETONS__['react/']!.version,
      shareConfig: { singleton: true, strictVersion: true, requiredVersion: `^${__SHARED_SINGLETONS__['react/']!.version}` },
    });
    expect(shared['@dealer/state/store']!.shareConfig.requiredVersion).toBe(__SHARED_SINGLETONS__['@dealer/state/']!.requiredVersion);
    const router = shared['react-router-dom']!;
    expect('lib' in router && router.lib()).toBe(sharedModules['react-router-dom']);
  });

  it('loads RTK Query and the platform API only when a remote asks for them, and hands over the module that then holds the store’s API', async () => {
    const shared = providedShared(__SHARED_SINGLETONS__);
    const api = shared['@dealer/state/platform-api']!;
    expect('get' in api).toBe(true);
    const factory = 'get' in api ? await api.get() : null;
    const loaded = await import('@dealer/state/platform-api');
    expect(factory?.()).toBe(loaded);
    expect(shared['@reduxjs/toolkit/query/react']!.shareConfig).toMatchObject({
      singleton: true,
      strictVersion: true,
      requiredVersion: __SHARED_SINGLETONS__['@reduxjs/toolkit/']!.requiredVersion,
    });
  });

  it('refuses to provide a module that sharedSingletons does not list (it would not be one instance)', () => {
    expect(() => providedShared({})).toThrow('react is provided to remotes but is not in sharedSingletons');
  });

  it('takes a module’s own rule before the longest prefix it falls under', () => {
    const rule = (version: string) => ({ singleton: true as const, strictVersion: true as const, requiredVersion: `^${version}`, version });
    const rules = { 'a/': rule('1.0.0'), 'a/b/': rule('2.0.0'), 'a/b/c': rule('3.0.0') };
    expect(singletonRule(rules, 'a/b/c')?.version).toBe('3.0.0');
    expect(singletonRule(rules, 'a/b/d')?.version).toBe('2.0.0');
    expect(singletonRule(rules, 'a/x')?.version).toBe('1.0.0');
    expect(singletonRule(rules, 'z')).toBeUndefined();
  });
});
