/** Set by the remote build (scripts/build-units.mjs): the immutable version being built. */
declare const __REMOTE_VERSION__: string;
/** Set by the shell's build (@dealer/build hostConfig): sharedSingletons, the rules of the modules the shell provides to remotes. */
declare const __SHARED_SINGLETONS__: Record<string, { singleton: true; strictVersion: true; requiredVersion: string; version: string }>;
