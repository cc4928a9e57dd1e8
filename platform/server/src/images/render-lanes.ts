/**
 * Render slots for pictures drawn on request (image-routes.ts, picture-serving.ts): two lanes so
 * small photos never wait behind large ones, bounded queues, and renders shared by everyone asking
 * for the same picture.
 */

/** All render slots are busy and the queue is full. */
export class RenderQueueFull extends Error {
  constructor() {
    super('Every render slot and queue place is taken.');
  }
}

/** A waiting render nobody waits for any more: it leaves the queue undrawn. */
export class RenderCancelled extends Error {
  constructor() {
    super('Everyone who asked for this picture has gone.');
  }
}

/** Which lane a render takes, what takes it out of the queue, and who hears that it has to wait. */
type LaneTicket = { small: boolean; signal?: AbortSignal; onWait?: () => void };

export type RenderLanes = <T>(task: () => Promise<T>, how: LaneTicket) => Promise<T>;

/**
 * Render slots in two lanes. `max` slots draw any photo and `smallMax` more draw only small ones,
 * which take their own slots first; so a small photo never waits behind large ones, and large ones
 * never have more than `max`. A freed shared slot goes to the first small photo waiting, else the
 * first large one; a freed small slot to the first small one. Each lane has `queue` places; a task
 * beyond them is refused at once with RenderQueueFull. A freed slot is handed straight to the
 * next in line, so a newcomer can never slip in between and run a task too many. A waiting task
 * whose `signal` aborts leaves its queue and rejects with RenderCancelled, never run.
 */
export function renderLanes({ max, smallMax, queue }: { max: number; smallMax: number; queue: number }): RenderLanes {
  type Slot = 'shared' | 'small';
  let shared = 0;
  let small = 0;
  const waiting = { small: [] as ((slot: Slot) => void)[], large: [] as ((slot: Slot) => void)[] };

  function take(isSmall: boolean): Slot | null {
    if (isSmall && small < smallMax) return (small++, 'small');
    if (shared < max) return (shared++, 'shared');
    return null;
  }
  function release(slot: Slot) {
    const next = waiting.small.shift() ?? (slot === 'shared' ? waiting.large.shift() : undefined);
    if (next) next(slot);
    else if (slot === 'small') small--;
    else shared--;
  }

  return async function run<T>(task: () => Promise<T>, how: LaneTicket): Promise<T> {
    const { signal } = how;
    if (signal?.aborted) throw new RenderCancelled();
    let slot = take(how.small);
    if (!slot) {
      const line = how.small ? waiting.small : waiting.large;
      if (line.length >= queue) throw new RenderQueueFull();
      slot = await new Promise<Slot>((resolve, reject) => {
        const start = (given: Slot) => {
          signal?.removeEventListener('abort', leave);
          resolve(given);
        };
        const leave = () => {
          line.splice(line.indexOf(start), 1);
          reject(new RenderCancelled());
        };
        signal?.addEventListener('abort', leave, { once: true });
        line.push(start);
        how.onWait?.();
      });
      // Given a slot, but everyone left before this task's turn came round: pass it on.
      if (signal?.aborted) {
        release(slot);
        throw new RenderCancelled();
      }
    }
    try {
      return await task();
    } finally {
      release(slot);
    }
  };
}

/** A render under way, and how many requests wait for it. */
type Render = {
  readonly key: string;
  readonly bytes: Promise<Buffer>;
  readonly cancel: AbortController;
  readonly state: { started: boolean };
  askers: number;
};

/**
 * Renders under way by key, each shared by everyone asking for the same picture. `start` queues
 * one in `lanes` and has its bytes kept (`keep`: written to the disk cache) before it is
 * forgotten; `wait` waits for one as one more asker. An asker whose `gone` signal aborts stops
 * waiting (RenderCancelled); when the last one goes while the render still waits for a slot, it
 * is taken out of the queue undrawn (`onCancel`). One already drawing is finished and kept.
 */
export function sharedRenders(lanes: RenderLanes, onCancel?: (key: string) => void) {
  const renders = new Map<string, Render>();
  return {
    get: (key: string): Render | undefined => renders.get(key),

    start(key: string, how: Omit<LaneTicket, 'signal'>, draw: () => Promise<Buffer>, keep: (bytes: Buffer) => Promise<void>): Render {
      const cancel = new AbortController();
      // The lanes may start the drawing at once, before `bytes` is known.
      const state = { started: false };
      const drawn = lanes(
        () => {
          state.started = true;
          return draw();
        },
        { ...how, signal: cancel.signal },
      );
      const render: Render = {
        key,
        cancel,
        state,
        askers: 0,
        bytes: drawn
          .then(async (bytes) => {
            await keep(bytes);
            return bytes;
          })
          .finally(() => {
            if (renders.get(key) === render) renders.delete(key);
          }),
      };
      // Its askers hear of a failure through `wait`; with none left, nobody needs to.
      render.bytes.catch(() => undefined);
      renders.set(key, render);
      return render;
    },

    wait(render: Render, gone: AbortSignal): Promise<Buffer> {
      render.askers++;
      return new Promise<Buffer>((resolve, reject) => {
        const leave = () => {
          render.askers--;
          if (render.askers === 0 && !render.state.started && renders.get(render.key) === render) {
            renders.delete(render.key);
            render.cancel.abort();
            onCancel?.(render.key);
          }
          reject(new RenderCancelled());
        };
        if (gone.aborted) return leave();
        gone.addEventListener('abort', leave, { once: true });
        render.bytes.then(resolve, reject).finally(() => gone.removeEventListener('abort', leave));
      });
    },
  };
}
