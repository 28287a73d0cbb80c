// Runs the firmware's tests (or a heap measurement) under real MicroPython: the WebAssembly
// port from firmware/package.json, with the firmware package and a fake `machine` copied into
// its in-memory filesystem.
//
//   node firmware/tools/run_mpy.mjs                 run every firmware/tests/test_*.py
//   node firmware/tools/run_mpy.mjs test_link ...   run the named test modules
//   node firmware/tools/run_mpy.mjs --heap ROLE     print gc.mem_alloc() after start-up
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript/micropython.mjs";

const firmware = join(dirname(fileURLToPath(import.meta.url)), "..");
const HEAP_BYTES = 192 * 1024; // about what an RP2040 running MicroPython has free

function copyDir(mp, from, to) {
  mp.FS.mkdirTree(to);
  for (const name of readdirSync(from)) {
    if (name.endsWith(".py") || name.endsWith(".json")) {
      mp.FS.writeFile(join(to, name), readFileSync(join(from, name)));
    }
  }
}

const args = process.argv.slice(2);
const mp = await loadMicroPython({
  heapsize: HEAP_BYTES,
  stdout: (data) => process.stdout.write(data),
  stderr: (data) => process.stderr.write(data),
  linebuffer: false,
});
copyDir(mp, join(firmware, "counter"), "/fw/counter");
copyDir(mp, join(firmware, "tests"), "/fw/tests");
mp.FS.writeFile("/fw/machine.py", readFileSync(join(firmware, "fakes", "machine.py")));
mp.FS.writeFile("/fw/main.py", readFileSync(join(firmware, "main.py")));

let code;
if (args[0] === "--heap") {
  const role = JSON.stringify(args[1] || "hp");
  // Two separate runs: memory the start-up freed is only reclaimed once its frames are gone.
  mp.runPython(`
import sys
sys.path[:0] = ["/fw", "/fw/tests"]
import heap_probe
heap_probe.start(${role})
`);
  code = "result = heap_probe.finish()";
} else {
  const modules = args.length
    ? args
    : readdirSync(join(firmware, "tests"))
        .filter((n) => n.startsWith("test_") && n.endsWith(".py"))
        .map((n) => n.slice(0, -3))
        .sort();
  code = `
import sys
sys.path[:0] = ["/fw", "/fw/tests"]
import runner
result = runner.run_modules(${JSON.stringify(modules)})
`;
}
try {
  mp.runPython(code);
} catch (error) {
  if (error.name !== "PythonError") throw error;
  console.error(error.message);
  process.exit(1);
}
if (args[0] !== "--heap") {
  process.exit(mp.globals.get("result") === 0 ? 0 : 1);
}
