/** Set by the remote build (scripts/build-units.mjs): the immutable version being built. */
declare const __REMOTE_VERSION__: string;
