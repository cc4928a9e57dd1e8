import type { Configuration, RspackPluginInstance } from '@rspack/core';

export declare function remoteConfig(opts: {
  dir: string;
  name: string;
  exposes: Record<string, string>;
  slots?: Record<string, string[]>;
  server?: string;
  port: number;
  outDir?: string;
  mode?: string;
}): Configuration;
export declare function nodeRenderConfig(opts: {
  dir: string;
  entry: Record<string, string>;
  outPath: string;
  isExternal: (request: string) => boolean;
  clean?: boolean;
  defines?: Record<string, string>;
}): Configuration;
export declare function compileHints(test: RegExp): RspackPluginInstance;
export declare function hostConfig(opts: { dir: string; outDir?: string; mode?: string; firstPaint?: string }): Configuration;
