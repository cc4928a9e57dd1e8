import { createContext, useContext, type ComponentType } from 'react';
import type { ExposedModule } from '@dealer/contracts/remote-modules';

/**
 * How a remote offers UI to another without importing it: the shell provides a renderer that
 * knows which remotes the site has. Off → renders nothing; failing → a small fallback.
 */
export type SlotRenderer = ComponentType<{ module: ExposedModule; props: Record<string, unknown> }>;

export const RemoteSlotContext = createContext<SlotRenderer | null>(null);

export function RemoteSlot({ module, ...props }: { module: ExposedModule } & Record<string, unknown>) {
  const Renderer = useContext(RemoteSlotContext);
  if (!Renderer) return null;
  return <Renderer module={module} props={props} />;
}
