import { createContext, useContext, type ReactNode } from 'react';
import type { ExposedModule, ExposedProps, SlotName, SlotProps } from '@dealer/contracts/remote-modules';

/**
 * How a remote offers UI to another without importing it: the shell provides a renderer that
 * knows which remotes the site has. Off → renders nothing; failing → a small fallback.
 * The context values stay plain functions: remotes built against an older @dealer/ui call them too.
 */
export type SlotRenderer = (module: ExposedModule, props: Record<string, unknown>) => ReactNode;
export type NamedSlotRenderer = (name: SlotName, props: Record<string, unknown>) => ReactNode;

export const RemoteSlotContext = createContext<SlotRenderer | null>(null);
export const NamedSlotContext = createContext<NamedSlotRenderer | null>(null);

/** One named module of another remote; its props are checked against ExposedProps at compile time. */
export function RemoteSlot<M extends ExposedModule>({ module, ...props }: { module: M } & ExposedProps[M]) {
  const renderSlot = useContext(RemoteSlotContext);
  return renderSlot ? renderSlot(module, props as Record<string, unknown>) : null;
}

/** A named place other remotes fill (see SlotProps): whatever the site's enabled remotes put there. */
export function NamedSlot<S extends SlotName>({ name, ...props }: { name: S } & SlotProps[S]) {
  const renderNamed = useContext(NamedSlotContext);
  return renderNamed ? renderNamed(name, props as Record<string, unknown>) : null;
}
