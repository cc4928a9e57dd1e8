/** The eight backdrops of the generated vehicle photos (car-photo.ts): a photo's variant picks one. */

import { stableHash } from './car-paint';

/* ------------------------------------------------------------------ scenes */

export interface Scene {
  /** Backdrop colours from top to horizon. */
  sky: readonly string[];
  /** Ground colours from horizon to bottom. */
  ground: readonly [string, string];
  horizon: number;
  /** y of the tyres' contact line. */
  groundY: number;
  scale: number;
  /** 1: vehicle faces right; -1: faces left. */
  dir: 1 | -1;
  dx: number;
  reflect: boolean;
  shadow: number;
  extras: (id: string) => string;
}

export const scenes: readonly Scene[] = [
  // 0 bright showroom
  {
    sky: ['#f7f8fa', '#e6e9ee', '#d9dde3'],
    ground: ['#cfd3d9', '#eef0f3'],
    horizon: 350,
    groundY: 470,
    scale: 1.05,
    dir: 1,
    dx: 0,
    reflect: true,
    shadow: 0.45,
    extras: (id) =>
      `<radialGradient id="${id}-glow" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#ffffff" stop-opacity="0.9"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient>` +
      `<ellipse cx="200" cy="60" rx="220" ry="170" fill="url(#${id}-glow)"/>` +
      `<ellipse cx="600" cy="60" rx="220" ry="170" fill="url(#${id}-glow)"/>` +
      `<rect x="0" y="343" width="800" height="7" fill="#c3c8cf"/>`,
  },
  // 1 outdoor, daytime with hills
  {
    sky: ['#5d9bd6', '#a9cdec', '#e2eef7'],
    ground: ['#8d9196', '#62666b'],
    horizon: 345,
    groundY: 480,
    scale: 1,
    dir: -1,
    dx: 10,
    reflect: false,
    shadow: 0.5,
    extras: () =>
      `<ellipse cx="160" cy="90" rx="90" ry="22" fill="#ffffff" opacity="0.7"/>` +
      `<ellipse cx="220" cy="80" rx="60" ry="20" fill="#ffffff" opacity="0.75"/>` +
      `<ellipse cx="620" cy="120" rx="110" ry="18" fill="#ffffff" opacity="0.55"/>` +
      `<path d="M0 300 C120 250 240 270 360 295 C470 250 620 240 800 290 L800 346 L0 346 Z" fill="#86a872"/>` +
      `<path d="M0 320 C160 290 300 300 440 322 C560 300 690 300 800 318 L800 346 L0 346 Z" fill="#5f8a50"/>` +
      `<rect x="0" y="345" width="800" height="8" fill="#b9bcbf"/>` +
      `<rect x="0" y="560" width="800" height="4" fill="#d9dbdd" opacity="0.35"/>`,
  },
  // 2 dark studio with a spotlight
  {
    sky: ['#121317', '#23262c', '#30343b'],
    ground: ['#2a2d33', '#0f1012'],
    horizon: 365,
    groundY: 475,
    scale: 1.08,
    dir: 1,
    dx: -6,
    reflect: true,
    shadow: 0.7,
    extras: (id) =>
      `<radialGradient id="${id}-spot" cx="0.5" cy="0.35" r="0.6"><stop offset="0" stop-color="#ffffff" stop-opacity="0.22"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient>` +
      `<rect x="0" y="0" width="800" height="600" fill="url(#${id}-spot)"/>`,
  },
  // 3 sunset
  {
    sky: ['#2b335e', '#a9577f', '#f2836e', '#ffbd66'],
    ground: ['#3a3244', '#1c1823'],
    horizon: 355,
    groundY: 482,
    scale: 0.98,
    dir: -1,
    dx: 0,
    reflect: false,
    shadow: 0.6,
    extras: () =>
      `<circle cx="590" cy="318" r="46" fill="#ffe2a0" opacity="0.9"/>` +
      `<path d="M0 330 C110 300 210 318 300 326 C400 296 520 306 640 328 C700 318 760 320 800 326 L800 356 L0 356 Z" fill="#4a3550" opacity="0.9"/>`,
  },
  // 4 warm showroom with windows
  {
    sky: ['#f1e9de', '#e3d7c8', '#d6c9b8'],
    ground: ['#c9baa8', '#ebe2d6'],
    horizon: 352,
    groundY: 468,
    scale: 1.1,
    dir: 1,
    dx: 8,
    reflect: true,
    shadow: 0.45,
    extras: () => {
      let s = '';
      for (let i = 0; i < 4; i++) {
        const x = 40 + i * 190;
        s += `<rect x="${x}" y="60" width="150" height="250" rx="4" fill="#fbf8f3" opacity="0.8"/>`;
        s += `<rect x="${x + 73}" y="60" width="4" height="250" fill="#d8cbb9"/>`;
      }
      s += `<rect x="0" y="345" width="800" height="7" fill="#bfae99"/>`;
      for (let i = 1; i < 6; i++) {
        const y = 352 + i * i * 9;
        s += `<rect x="0" y="${y}" width="800" height="1.5" fill="#b8a994" opacity="0.5"/>`;
      }
      return s;
    },
  },
  // 5 overcast city
  {
    sky: ['#aab5c0', '#cfd6dc', '#e4e7ea'],
    ground: ['#a5a7aa', '#7f8285'],
    horizon: 348,
    groundY: 478,
    scale: 1.02,
    dir: -1,
    dx: -12,
    reflect: false,
    shadow: 0.45,
    extras: () => {
      let s = '';
      const blocks = [
        [0, 210, 90],
        [95, 170, 70],
        [170, 240, 110],
        [285, 190, 80],
        [370, 150, 60],
        [435, 220, 120],
        [560, 180, 90],
        [655, 230, 70],
        [730, 200, 70],
      ] as const;
      for (const [x, top, w] of blocks) {
        s += `<rect x="${x}" y="${top}" width="${w}" height="${348 - top}" fill="#97a3ae" opacity="0.55"/>`;
      }
      s += `<rect x="0" y="340" width="800" height="10" fill="#8e979f" opacity="0.6"/>`;
      return s;
    },
  },
  // 6 coast
  {
    sky: ['#7cc6ee', '#b5e1f6', '#e6f6fc'],
    ground: ['#dac9a6', '#bda77f'],
    horizon: 340,
    groundY: 476,
    scale: 1,
    dir: 1,
    dx: 14,
    reflect: false,
    shadow: 0.45,
    extras: () =>
      `<rect x="0" y="312" width="800" height="30" fill="#3d95bf"/>` +
      `<rect x="0" y="312" width="800" height="4" fill="#8fcbe4" opacity="0.8"/>` +
      `<path d="M0 330 L800 326" stroke="#ffffff" stroke-width="2" opacity="0.35"/>` +
      `<ellipse cx="640" cy="110" rx="80" ry="16" fill="#ffffff" opacity="0.6"/>`,
  },
  // 7 night showroom
  {
    sky: ['#0a0f24', '#16204a', '#243263'],
    ground: ['#1d2029', '#0c0e13'],
    horizon: 358,
    groundY: 472,
    scale: 1.04,
    dir: -1,
    dx: 0,
    reflect: true,
    shadow: 0.7,
    extras: (id) => {
      let s = '';
      for (let i = 0; i < 26; i++) {
        const h = stableHash(`star${i}`);
        s += `<circle cx="${h % 800}" cy="${(h >>> 10) % 300}" r="${1 + ((h >>> 20) % 3) / 2}" fill="#fff5d6" opacity="${0.3 + ((h >>> 24) % 5) / 10}"/>`;
      }
      s += `<radialGradient id="${id}-pool" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#8ea2ff" stop-opacity="0.28"/><stop offset="1" stop-color="#8ea2ff" stop-opacity="0"/></radialGradient>`;
      s += `<ellipse cx="400" cy="470" rx="420" ry="120" fill="url(#${id}-pool)"/>`;
      return s;
    },
  },
];
