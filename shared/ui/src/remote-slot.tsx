import { createContext, useContext, type ReactNode } from 'react';
import type { ExposedModule } from '@dealer/contracts/remote-modules';

/**
 * How a remote offers UI to another without importing it: the shell provides a renderer that
 * knows which remotes the site has. Off → renders nothing; failing → a small fallback.
 */
export type SlotRenderer = (module: ExposedModule, props: Record<string, unknown>) => ReactNode;

export const RemoteSlotContext = createContext<SlotRenderer | null>(null);

export function RemoteSlot({ module, ...props }: { module: ExposedModule } & Record<string, unknown>) {
  const renderSlot = useContext(RemoteSlotContext);
  return renderSlot ? renderSlot(module, props) : null;
}
