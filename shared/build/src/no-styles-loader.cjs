/* global module */
// A remote's server build leaves styles out: the browser build ships them, the server renders markup only.
module.exports = function noStyles() {
  return 'export {};';
};
