#!/usr/bin/env node
'use strict';
// CommonJS (see bin/package.json): start-up skips the ES module loader, and the CLI is one
// pre-built bundle, so `skillctl --version` costs little more than starting Node.
require('node:module').enableCompileCache?.();
require('../dist/skillctl.cjs').cli();
