// What a Lighthouse trace says about CPU time, not wall time. On this 2-core machine Chromium's own
// processes (the compositor drawing frames in software, the browser process taking Lighthouse's
// screenshots) use as much CPU during a page load as the page's renderer does; while they run, the
// renderer's tasks wait, and Lighthouse counts the wait as main-thread work. The renderer main
// thread's own CPU time does not include that wait, so it drifts less from run to run.
import { readFileSync } from 'node:fs';

/**
 * From a trace saved by `lighthouse --save-assets`: the page's renderer main thread (the busiest one)
 * as wall and CPU ms of its tasks and of its longest task, and the CPU ms of every other Chromium thread
 * in the same window.
 */
export function traceCpu(file) {
  const events = JSON.parse(readFileSync(file, 'utf8')).traceEvents ?? [];
  const threadNames = new Map();
  const processNames = new Map();
  for (const event of events) {
    if (event.name === 'thread_name') threadNames.set(`${event.pid}:${event.tid}`, event.args?.name);
    if (event.name === 'process_name') processNames.set(event.pid, event.args?.name);
  }
  const tasks = new Map();
  for (const event of events) {
    if (event.ph !== 'X' || event.tdur === undefined) continue;
    if (event.name !== 'RunTask' && event.name !== 'ThreadControllerImpl::RunTask' && event.name !== 'ThreadPool_RunTask') continue;
    const thread = `${event.pid}:${event.tid}`;
    const list = tasks.get(thread) ?? [];
    list.push(event);
    tasks.set(thread, list);
  }
  const renderers = [...tasks].filter(([thread]) => threadNames.get(thread) === 'CrRendererMain');
  const [main, mainTasks] = renderers.sort((a, b) => b[1].length - a[1].length)[0] ?? [null, []];
  const sum = (list, key) => list.reduce((total, event) => total + (event[key] ?? 0), 0) / 1000;
  let othersCpuMs = 0;
  // Who the others are: the browser process's main thread (Lighthouse's protocol and each frame's
  // screenshot), the GPU process's compositor (every frame drawn in software) and the rest.
  const othersMs = { browser: 0, compositor: 0, rest: 0 };
  for (const [thread, list] of tasks) {
    if (thread === main) continue;
    const cpu = sum(list, 'tdur');
    othersCpuMs += cpu;
    const pid = Number(thread.split(':')[0]);
    if (processNames.get(pid) === 'Browser' && threadNames.get(thread) === 'CrBrowserMain') othersMs.browser += cpu;
    else if (threadNames.get(thread) === 'VizCompositorThread') othersMs.compositor += cpu;
    else othersMs.rest += cpu;
  }
  // The longest top-level task (issue 25: none over 20 ms at 1×), as wall time and as its own CPU time;
  // and the longest of those that ran the page's scripts (compiled or ran JavaScript): issue 25 asks
  // for less script before the page is usable, and the navigation's commit, parsing and layout are
  // Chromium's tasks whatever the page's scripts do.
  const scriptEvents = new Set(['EvaluateScript', 'v8.compile', 'FunctionCall', 'v8.callFunction', 'v8.run', 'EvaluateModule']);
  const mainThreadEvents = events
    .filter((event) => event.ph === 'X' && `${event.pid}:${event.tid}` === main && scriptEvents.has(event.name))
    .sort((a, b) => a.ts - b.ts);
  let longest = { dur: 0, tdur: 0 };
  let longestScript = { dur: 0, tdur: 0 };
  let end = -Infinity;
  let next = 0;
  for (const task of [...mainTasks].sort((a, b) => a.ts - b.ts)) {
    if (task.ts < end) continue; // nested inside the task before it
    end = task.ts + task.dur;
    if (task.dur > longest.dur) longest = task;
    while (next < mainThreadEvents.length && mainThreadEvents[next].ts < task.ts) next++;
    const ranScript = next < mainThreadEvents.length && mainThreadEvents[next].ts < end;
    if (ranScript && task.dur > longestScript.dur) longestScript = task;
  }
  return {
    mainWallMs: sum(mainTasks, 'dur'),
    mainCpuMs: sum(mainTasks, 'tdur'),
    othersCpuMs,
    othersMs,
    // Frames the page drew while traced (Lighthouse keeps a screenshot of each): a tall page's overlay
    // scrollbar fades out in about 19 of them, which the one-screen reference page never draws.
    framesDrawn: events.filter((event) => event.name === 'Screenshot').length,
    longestTaskMs: longest.dur / 1000,
    longestTaskCpuMs: (longest.tdur ?? 0) / 1000,
    longestScriptTaskMs: longestScript.dur / 1000,
    longestScriptTaskCpuMs: (longestScript.tdur ?? 0) / 1000,
  };
}
