/* global require, module */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS: the loader of a native addon */
// Loads the addon node-gyp built (build/Release/fdpass.node; absent on Windows, where
// requiring this package throws) and gives its errors Node's `code` (EAGAIN, EPIPE, ...).
'use strict';
const { getSystemErrorName } = require('node:util');
const addon = require('./build/Release/fdpass.node');

function withCode(error) {
  if (error && typeof error.errno === 'number' && error.code === undefined) {
    try {
      // libuv's codes are the negated errno values on the platforms this builds on.
      error.code = getSystemErrorName(-error.errno);
    } catch {
      error.code = `ERRNO_${error.errno}`;
    }
  }
  return error;
}

module.exports = {
  connectUnix(path) {
    try {
      return addon.connectUnix(path);
    } catch (error) {
      throw withCode(error);
    }
  },
  sendFd(socketFd, fileFd, data) {
    try {
      return addon.sendFd(socketFd, fileFd, data);
    } catch (error) {
      throw withCode(error);
    }
  },
};
