// Bundled on its own as the document's first script (hostConfig `firstPaint`): it runs before
// the shell's entry, its federation runtime and the app have even arrived.
import { paintFirstFrame } from './first-paint';

paintFirstFrame();
