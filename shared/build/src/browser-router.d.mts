export declare const unavailableRouterExports: Set<string>;
export declare function browserRouterExports(fromDir: string): string[];
export declare function browserRouterShared(
  dir: string,
  sharedSingletons: Record<string, { singleton: true; requiredVersion: string; version?: string }>,
): Record<'react-router' | 'react-router-dom', { singleton: true; requiredVersion: string; import: string; version: string }>;
export declare function assertBrowserRouterImports(dirs: string[], fromDir: string): void;
