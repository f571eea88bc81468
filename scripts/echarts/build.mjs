// Builds themes/default/static/js/echarts.min.js: Apache ECharts from its
// npm package (tree-shakable API: echarts/core + the modules below),
// minified into one classic script that sets the global `echarts`, the
// name site.js uses. Rebuild with scripts/echarts/build.sh (npm ci with
// the pinned package-lock.json, then node build.mjs); it rewrites
// echarts.min.js and the licences beside it, and the same versions give
// the same bytes, so a rebuild with nothing changed is no diff.
//
// esbuild bundles and tree-shakes the ES modules; terser minifies (a few
// percent smaller after gzip than esbuild's own minifier, as ECharts' own
// release build does). Both are deterministic: the same versions give the
// same bytes.
//
// The modules are what the site draws (generator/site/charts.go and
// themes/default/script/40-charts.js): a chart type or component that is not
// here is silently ignored by a production build (only ECharts' dev build
// says "Series xxx is used but not imported"): e2e's TestChartPages
// opens every kind of page that draws charts and fails on any series type,
// component or renderer the pages ask for that this build has not
// registered. Add a module here when a chart needs one.
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { minify } from "terser";

const modules = {
  charts: ["LineChart", "BarChart", "ScatterChart"],
  // LegendComponent is plain + scroll, DataZoomComponent inside + slider,
  // TooltipComponent brings the axis pointer.
  components: ["GridComponent", "LegendComponent", "TooltipComponent", "DataZoomComponent", "MarkLineComponent"],
  renderers: ["SVGRenderer"],
};

// The API the global exposes: what site.js and the browser tests call
// (init, getInstanceByDom, format.encodeHTML, version) and the rest of the
// instances' life cycle, which costs nothing more. The rest of echarts/core
// (graphic, helper, maps, …) costs 5 KB gzip and no page calls it.
const api = ["version", "init", "getInstanceByDom", "getInstanceById", "dispose", "connect", "disconnect",
  "registerTheme", "registerLocale", "format"];

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const js = here("../../themes/default/static/js");
const out = `${js}/echarts.min.js`;
const version = (pkg) => JSON.parse(readFileSync(here(`node_modules/${pkg}/package.json`), "utf8")).version;

const all = Object.values(modules).flat();
const entry = [
  `import { use } from "echarts/core";`,
  ...Object.entries(modules).map(([from, names]) => `import { ${names.join(", ")} } from "echarts/${from}";`),
  `use([${all.join(", ")}]);`,
  `export { ${api.join(", ")} } from "echarts/core";`,
].join("\n");

const banner = `/*
* Licensed to the Apache Software Foundation (ASF) under one
* or more contributor license agreements.  See the NOTICE file
* distributed with this work for additional information
* regarding copyright ownership.  The ASF licenses this file
* to you under the Apache License, Version 2.0 (the
* "License"); you may not use this file except in compliance
* with the License.  You may obtain a copy of the License at
*
*   http://www.apache.org/licenses/LICENSE-2.0
*
* Unless required by applicable law or agreed to in writing,
* software distributed under the License is distributed on an
* "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY
* KIND, either express or implied.  See the License for the
* specific language governing permissions and limitations
* under the License.
*/
/*
* Custom build of echarts@${version("echarts")} (zrender@${version("zrender")}) for perfpages,
* built by scripts/echarts/build.mjs with esbuild@${version("esbuild")} and terser@${version("terser")}: echarts/core with
* ${modules.charts.join(", ")};
* ${modules.components.join(", ")};
* ${modules.renderers.join(", ")}.
* Licences: echarts.LICENSE, echarts.NOTICE and echarts.LICENSE-d3 (ECharts),
* echarts.LICENSE-zrender (zrender, BSD-3-Clause), echarts.LICENSE-tslib (tslib, 0BSD).
* Rebuild: scripts/echarts/build.sh.
*/`;

const bundle = await esbuild.build({
  stdin: { contents: entry, resolveDir: here("."), sourcefile: "perfpages-echarts.js" },
  bundle: true,
  format: "iife",
  globalName: "echarts",
  target: "es2017",
  define: { "process.env.NODE_ENV": '"production"' },
  legalComments: "none",
  write: false,
});
const min = await minify(bundle.outputFiles[0].text, {
  compress: { passes: 2 },
  mangle: true,
  format: { comments: false, preamble: banner },
});
writeFileSync(out, min.code + "\n");
// The licences and notice travel with the code, from the packages bundled:
// ECharts (Apache-2.0, with d3-derived code), zrender (BSD-3-Clause: a
// binary form reproduces its notice) and tslib's helpers (0BSD).
copyFileSync(here("node_modules/echarts/LICENSE"), `${js}/echarts.LICENSE`);
copyFileSync(here("node_modules/echarts/licenses/LICENSE-d3"), `${js}/echarts.LICENSE-d3`);
copyFileSync(here("node_modules/echarts/NOTICE"), `${js}/echarts.NOTICE`);
copyFileSync(here("node_modules/zrender/LICENSE"), `${js}/echarts.LICENSE-zrender`);
copyFileSync(here("node_modules/tslib/LICENSE.txt"), `${js}/echarts.LICENSE-tslib`);
console.log(`${out}: ${Buffer.byteLength(min.code) + 1} bytes`);
