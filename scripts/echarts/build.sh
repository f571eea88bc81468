#!/usr/bin/env bash
# Rebuilds the default theme's custom ECharts build,
# themes/default/static/js/echarts.min.js, and the licences beside it, from
# the npm packages pinned in package-lock.json (echarts, and esbuild and
# terser to bundle and minify). Needs Node.js 18 or later and npm; what the
# build holds and why is in build.mjs. The output is the same bytes for the
# same lock file: commit it with the change that needed it.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
node build.mjs
