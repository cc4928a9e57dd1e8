/** The one bit of `process` browser code reads: the bundler replaces it with the build mode. */
declare const process: { env: { NODE_ENV?: string } };
