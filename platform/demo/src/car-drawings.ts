/** The vehicle silhouettes of the generated photos (car-photo.ts), drawn in local units as SVG. */
import type { BodyShape } from './car-bodies';
import { darken, luminance } from './car-paint';

/* ---------------------------------------------------------------- drawings */

export interface Paint {
  id: string;
  hex: string;
  dark: string;
  trim: string;
}

/** Local coordinates: the vehicle spans x 10..600, tyres touch y = 300, up is smaller y. */
export const GROUND = 300;

function wheel(p: Paint, x: number, r: number, opts: { rim?: string } = {}): string {
  const cy = GROUND - r;
  const rim = opts.rim ?? `url(#${p.id}-rim)`;
  let s = '';
  s += `<circle cx="${x}" cy="${cy}" r="${r}" fill="#1a1b1e"/>`;
  s += `<circle cx="${x}" cy="${cy}" r="${r * 0.93}" fill="none" stroke="#2b2d31" stroke-width="${r * 0.05}"/>`;
  s += `<circle cx="${x}" cy="${cy}" r="${r * 0.62}" fill="${rim}"/>`;
  for (let i = 0; i < 5; i++) {
    const a = (i * 72 * Math.PI) / 180 - Math.PI / 2;
    const x2 = x + Math.cos(a) * r * 0.58;
    const y2 = cy + Math.sin(a) * r * 0.58;
    s += `<line x1="${x}" y1="${cy}" x2="${x2.toFixed(1)}" y2="${y2.toFixed(1)}" stroke="#5d6168" stroke-width="${(r * 0.11).toFixed(1)}" stroke-linecap="round" opacity="0.55"/>`;
  }
  s += `<circle cx="${x}" cy="${cy}" r="${r * 0.18}" fill="#3a3d42"/>`;
  s += `<circle cx="${x}" cy="${cy}" r="${r * 0.07}" fill="#b9bdc2"/>`;
  return s;
}

/** Dark wheel arch: a disc cut off at the body's lower edge. */
function arch(x: number, cy: number, r: number, bottom: number, fill: string): string {
  return `<path d="M${x - r} ${bottom} L${x - r} ${cy} A${r} ${r} 0 0 1 ${x + r} ${cy} L${x + r} ${bottom} Z" fill="${fill}"/>`;
}

const bodyFill = (p: Paint) => `url(#${p.id}-paint)`;
const glassFill = (p: Paint) => `url(#${p.id}-glass)`;

function lights(head: string, tail: string): string {
  return `<path d="${head}" fill="#fbf6e4" stroke="#9aa0a6" stroke-width="1"/><path d="${tail}" fill="#c0202a" stroke="#6d1016" stroke-width="1"/>`;
}

function doorLines(p: Paint, d: string): string {
  return `<path d="${d}" fill="none" stroke="${darken(p.hex, 0.45)}" stroke-width="1.6" opacity="0.6"/>`;
}

function handle(x: number, y: number): string {
  return `<rect x="${x}" y="${y}" width="18" height="4" rx="2" fill="#000000" opacity="0.3"/>`;
}

/** Sheen along the shoulder and a darker sill: makes flat paint look like a car. */
function sheen(p: Paint, shoulder: string, sill: string): string {
  return (
    `<path d="${shoulder}" fill="none" stroke="#ffffff" stroke-width="3" stroke-linecap="round" opacity="${luminance(p.hex) > 0.7 ? 0.5 : 0.28}"/>` +
    `<path d="${sill}" fill="none" stroke="${p.trim}" stroke-width="9" stroke-linecap="round" opacity="0.75"/>`
  );
}

function glassShine(d: string): string {
  return `<path d="${d}" fill="#ffffff" opacity="0.13"/>`;
}

function sedan(p: Paint): string {
  const body =
    'M24 264 L20 226 C20 206 28 192 46 188 L150 182 C182 160 206 140 240 132 C282 124 360 122 392 128 C420 136 448 160 472 184 C520 188 560 192 580 198 C592 204 596 214 596 230 L596 258 C596 266 590 270 580 270 L36 270 C28 270 24 268 24 264 Z';
  const glass = 'M168 184 C194 162 216 146 246 140 C286 133 356 132 388 137 C410 144 432 162 452 184 Z';
  return (
    `<path d="${body}" fill="${bodyFill(p)}"/>` +
    `<path d="${glass}" fill="${glassFill(p)}"/>` +
    glassShine('M300 134 L340 133 L300 184 L262 184 Z') +
    `<path d="M320 132 L314 186" stroke="${p.hex}" stroke-width="9"/>` +
    `${arch(130, 256, 50, 270, p.dark)}${wheel(p, 130, 44)}` +
    `${arch(476, 256, 50, 270, p.dark)}${wheel(p, 476, 44)}` +
    doorLines(p, 'M190 188 L194 256 M316 188 L314 262 M452 186 L440 258') +
    handle(232, 198) +
    handle(356, 198) +
    sheen(p, 'M48 196 L150 190 L470 194 L578 206', 'M190 264 L420 264') +
    lights('M576 200 C586 202 592 208 594 216 L570 214 Z', 'M22 204 C28 196 36 192 46 190 L48 208 L22 210 Z')
  );
}

function hatch(p: Paint): string {
  const body =
    'M62 264 L60 214 C60 196 64 176 72 162 C80 146 96 132 120 126 C200 120 300 120 340 126 C370 134 400 160 428 184 C470 190 510 194 528 202 C540 208 544 218 544 232 L544 258 C544 266 538 270 528 270 L74 270 C66 270 62 268 62 264 Z';
  const glass = 'M94 182 L98 160 C106 146 118 138 134 136 C200 132 290 131 334 137 C360 146 384 164 406 184 Z';
  return (
    `<path d="${body}" fill="${bodyFill(p)}"/>` +
    `<path d="${glass}" fill="${glassFill(p)}"/>` +
    glassShine('M240 133 L282 133 L246 184 L204 184 Z') +
    `<path d="M262 132 L258 186" stroke="${p.hex}" stroke-width="9"/>` +
    `${arch(150, 258, 47, 270, p.dark)}${wheel(p, 150, 42)}` +
    `${arch(452, 258, 47, 270, p.dark)}${wheel(p, 452, 42)}` +
    doorLines(p, 'M260 188 L258 262 M410 186 L400 258 M120 186 L124 256') +
    handle(190, 198) +
    handle(300, 198) +
    sheen(p, 'M66 194 L420 194 L530 208', 'M200 264 L400 264') +
    lights('M524 204 C534 206 540 212 542 220 L520 218 Z', 'M62 170 C66 162 72 156 78 154 L80 196 L62 196 Z')
  );
}

function wagon(p: Paint): string {
  const body =
    'M24 264 L20 222 C20 200 24 180 30 164 C36 146 48 134 70 130 C160 124 340 122 392 128 C420 136 448 160 472 184 C520 188 560 192 580 198 C592 204 596 214 596 230 L596 258 C596 266 590 270 580 270 L36 270 C28 270 24 268 24 264 Z';
  const glass = 'M46 184 L52 164 C58 150 70 142 86 140 C180 134 340 132 388 137 C410 144 432 162 452 184 Z';
  return (
    `<path d="${body}" fill="${bodyFill(p)}"/>` +
    `<path d="${glass}" fill="${glassFill(p)}"/>` +
    glassShine('M250 134 L292 134 L250 184 L208 184 Z') +
    `<path d="M320 132 L314 186 M172 136 L176 186" stroke="${p.hex}" stroke-width="9"/>` +
    `${arch(130, 256, 50, 270, p.dark)}${wheel(p, 130, 44)}` +
    `${arch(476, 256, 50, 270, p.dark)}${wheel(p, 476, 44)}` +
    doorLines(p, 'M190 188 L194 256 M316 188 L314 262 M452 186 L440 258') +
    handle(232, 198) +
    handle(356, 198) +
    sheen(p, 'M30 196 L470 194 L578 206', 'M190 264 L420 264') +
    lights('M576 200 C586 202 592 208 594 216 L570 214 Z', 'M22 178 C24 170 28 164 32 160 L36 204 L21 204 Z') +
    `<rect x="100" y="121" width="260" height="5" rx="2.5" fill="${p.trim}"/>`
  );
}

function suv(p: Paint): string {
  const body =
    'M34 254 L30 200 C30 176 34 150 42 130 C48 114 60 104 80 102 C180 96 340 94 400 100 C428 108 456 136 478 162 C520 168 560 172 578 180 C588 186 592 198 592 214 L592 246 C592 256 586 262 576 262 L46 262 C38 262 34 258 34 254 Z';
  const glass = 'M54 164 L58 136 C62 122 70 116 86 114 C180 108 340 107 396 112 C418 122 440 142 460 164 Z';
  return (
    `<path d="${body}" fill="${bodyFill(p)}"/>` +
    `<path d="M34 236 L592 236 L592 246 C592 256 586 262 576 262 L46 262 C38 262 34 258 34 254 Z" fill="${p.trim}" opacity="0.85"/>` +
    `<path d="${glass}" fill="${glassFill(p)}"/>` +
    glassShine('M250 110 L296 110 L252 164 L206 164 Z') +
    `<path d="M322 108 L318 166 M180 110 L184 166" stroke="${p.hex}" stroke-width="10"/>` +
    `<rect x="110" y="90" width="260" height="6" rx="3" fill="${p.trim}"/>` +
    `${arch(140, 250, 57, 262, p.trim)}${wheel(p, 140, 50)}` +
    `${arch(470, 250, 57, 262, p.trim)}${wheel(p, 470, 50)}` +
    doorLines(p, 'M196 170 L200 236 M320 170 L318 236 M462 166 L452 236') +
    handle(238, 178) +
    handle(362, 178) +
    sheen(p, 'M40 176 L470 172 L578 186', 'M205 252 L410 252') +
    lights('M574 182 C584 184 590 190 591 198 L566 196 Z', 'M32 146 C34 136 38 128 44 122 L48 182 L31 182 Z')
  );
}

function ute(p: Paint): string {
  const body =
    'M26 262 L22 178 C22 174 24 172 28 172 L206 172 L208 116 C208 108 214 104 222 104 L386 102 C410 104 440 136 468 166 C520 170 560 176 580 184 C590 190 594 200 594 216 L594 252 C594 260 588 264 578 264 L38 264 C30 264 26 264 26 262 Z';
  const glass = 'M222 166 L222 120 C222 116 226 114 230 114 L382 113 C402 118 428 142 448 166 Z';
  return (
    `<path d="${body}" fill="${bodyFill(p)}"/>` +
    `<path d="M22 172 L206 172 L206 178 L22 178 Z" fill="${p.trim}"/>` +
    `<path d="M196 172 L200 120 L208 120 L206 172 Z" fill="${p.trim}" opacity="0.9"/>` +
    `<path d="M206 172 L206 262" stroke="${p.trim}" stroke-width="3"/>` +
    `<path d="${glass}" fill="${glassFill(p)}"/>` +
    glassShine('M300 114 L342 114 L300 166 L258 166 Z') +
    `<path d="M318 112 L316 168" stroke="${p.hex}" stroke-width="9"/>` +
    `${arch(140, 252, 55, 264, p.trim)}${wheel(p, 140, 48)}` +
    `${arch(480, 252, 55, 264, p.trim)}${wheel(p, 480, 48)}` +
    doorLines(p, 'M316 170 L314 252 M450 168 L440 246') +
    handle(250, 180) +
    handle(356, 180) +
    sheen(p, 'M26 184 L204 184 M212 178 L466 176 L580 188', 'M220 256 L420 256') +
    lights('M576 186 C586 188 592 194 593 202 L568 200 Z', 'M22 182 L34 182 L34 214 L22 214 Z')
  );
}

function coupe(p: Paint): string {
  const body =
    'M34 262 L30 224 C30 206 36 196 52 192 C90 188 130 182 170 168 C210 150 246 138 290 134 C340 132 370 136 390 144 C420 156 446 174 470 188 C520 194 560 198 578 204 C588 210 592 220 592 234 L592 256 C592 264 586 268 576 268 L46 268 C38 268 34 266 34 262 Z';
  const glass = 'M188 186 C220 164 252 150 292 146 C336 144 364 148 384 156 C404 166 424 176 440 186 Z';
  return (
    `<path d="${body}" fill="${bodyFill(p)}"/>` +
    `<path d="${glass}" fill="${glassFill(p)}"/>` +
    glassShine('M300 146 L338 146 L306 186 L268 186 Z') +
    `<path d="M250 152 L246 188" stroke="${p.hex}" stroke-width="7"/>` +
    `${arch(145, 256, 50, 268, p.dark)}${wheel(p, 145, 44)}` +
    `${arch(470, 256, 50, 268, p.dark)}${wheel(p, 470, 44)}` +
    doorLines(p, 'M250 190 L252 262 M444 190 L434 256') +
    handle(268, 200) +
    sheen(p, 'M52 198 L240 194 L470 198 L578 210', 'M205 262 L410 262') +
    lights('M572 206 C582 208 588 214 590 222 L564 220 Z', 'M30 206 C36 198 44 194 52 193 L54 210 L30 212 Z')
  );
}

function van(p: Paint): string {
  const body =
    'M24 266 L22 90 C22 72 32 62 50 62 L470 62 C490 62 502 70 512 84 L556 150 C576 160 590 172 594 190 L596 256 C596 264 590 270 580 270 L36 270 C28 270 24 268 24 266 Z';
  const glass =
    'M444 150 L444 80 L494 80 C500 80 504 84 508 90 L548 150 Z ' +
    'M300 82 L424 82 L424 142 L300 142 Z M150 82 L282 82 L282 142 L150 142 Z';
  return (
    `<path d="${body}" fill="${bodyFill(p)}"/>` +
    `<path d="${glass}" fill="${glassFill(p)}"/>` +
    glassShine('M330 82 L360 82 L330 142 L300 142 Z M470 80 L494 80 L470 150 L446 150 Z') +
    `${arch(120, 256, 50, 270, p.dark)}${wheel(p, 120, 44)}` +
    `${arch(490, 256, 50, 270, p.dark)}${wheel(p, 490, 44)}` +
    doorLines(p, 'M292 70 L292 262 M432 70 L432 262 M30 70 L30 262 M292 160 L432 160') +
    handle(300, 170) +
    handle(440, 170) +
    sheen(p, 'M26 160 L430 160 M440 160 L590 186', 'M180 264 L430 264') +
    `<path d="M22 236 L596 236 L596 256 C596 264 590 270 580 270 L36 270 C28 270 24 268 24 266 Z" fill="${p.trim}" opacity="0.85"/>` +
    lights('M580 172 C588 176 592 182 594 190 L572 188 Z', 'M22 150 L32 150 L32 200 L22 200 Z')
  );
}

function cab(p: Paint): string {
  const body =
    'M430 254 L430 86 C430 74 438 66 450 66 L560 66 C576 66 586 74 588 88 L596 186 L598 250 C598 258 592 262 584 262 L440 262 C434 262 430 258 430 254 Z';
  const glass = 'M502 82 L566 82 C574 82 578 86 579 92 L584 150 L502 150 Z M448 84 L492 84 L492 150 L448 150 Z';
  return (
    `<path d="${body}" fill="${bodyFill(p)}"/>` +
    `<path d="${glass}" fill="${glassFill(p)}"/>` +
    glassShine('M520 82 L546 82 L532 150 L506 150 Z') +
    `<rect x="560" y="196" width="38" height="18" rx="3" fill="${p.trim}"/>` +
    `<rect x="430" y="226" width="168" height="36" rx="4" fill="${p.trim}" opacity="0.9"/>` +
    doorLines(p, 'M444 78 L444 226 M496 78 L496 226') +
    handle(452, 164) +
    sheen(p, 'M436 160 L590 160', 'M440 258 L590 258') +
    `<path d="M586 186 L598 188 L598 206 L588 206 Z" fill="#fbf6e4" stroke="#9aa0a6"/>`
  );
}

function truck(p: Paint, tray: boolean): string {
  const chassis = `<rect x="30" y="${tray ? 202 : 222}" width="420" height="16" fill="#202226"/>`;
  const rear = tray
    ? `<rect x="22" y="174" width="396" height="22" fill="url(#${p.id}-alu)" stroke="#8b9096" stroke-width="1.5"/>` +
      `<rect x="404" y="104" width="14" height="72" fill="url(#${p.id}-alu)" stroke="#8b9096" stroke-width="1.5"/>` +
      `<path d="M404 120 L418 120 M404 140 L418 140 M404 160 L418 160" stroke="#8b9096" stroke-width="1.5"/>` +
      `<rect x="22" y="196" width="396" height="6" fill="#5b6066"/>`
    : `<rect x="20" y="58" width="404" height="166" rx="5" fill="url(#${p.id}-box)" stroke="#b9bec4" stroke-width="2"/>` +
      `<path d="M20 204 L424 204" stroke="#c9cdd2" stroke-width="2"/>` +
      `<rect x="20" y="150" width="404" height="12" fill="${p.hex}" opacity="0.85"/>` +
      `<rect x="22" y="216" width="14" height="14" fill="#c0202a"/>`;
  return (
    chassis +
    rear +
    (tray ? '' : arch(140, 252, 54, 238, '#1d1e21')) +
    `${wheel(p, 140, 48, { rim: '#d5d8dc' })}` +
    cab(p) +
    arch(510, 252, 54, 262, '#1d1e21') +
    wheel(p, 510, 48, { rim: '#d5d8dc' })
  );
}

function motorcycle(p: Paint): string {
  const tyre = (x: number) =>
    `<circle cx="${x}" cy="238" r="62" fill="none" stroke="#1a1b1e" stroke-width="16"/>` +
    `<circle cx="${x}" cy="238" r="52" fill="none" stroke="#6d7178" stroke-width="3"/>` +
    Array.from({ length: 6 }, (_, i) => {
      const a = (i * Math.PI) / 3;
      return `<line x1="${x}" y1="238" x2="${(x + Math.cos(a) * 50).toFixed(1)}" y2="${(238 + Math.sin(a) * 50).toFixed(1)}" stroke="#8d9198" stroke-width="4"/>`;
    }).join('') +
    `<circle cx="${x}" cy="238" r="10" fill="#4a4d52"/>`;
  return (
    tyre(150) +
    tyre(456) +
    `<path d="M300 228 L150 238" stroke="#2a2c30" stroke-width="12" stroke-linecap="round"/>` +
    `<path d="M456 238 L408 112" stroke="#aeb3b9" stroke-width="11" stroke-linecap="round"/>` +
    `<path d="M398 100 L420 82 M404 98 L390 86" stroke="#2a2c30" stroke-width="7" stroke-linecap="round"/>` +
    `<rect x="262" y="166" width="112" height="70" rx="14" fill="#3b3e44"/>` +
    `<path d="M278 176 L360 176 M278 190 L360 190 M278 204 L360 204 M278 218 L360 218" stroke="#5d6168" stroke-width="4"/>` +
    `<path d="M300 232 C260 252 200 254 130 226" fill="none" stroke="#c8ccd1" stroke-width="11" stroke-linecap="round"/>` +
    `<path d="M236 162 L372 170 L300 236 Z" fill="none" stroke="#2a2c30" stroke-width="8" stroke-linejoin="round"/>` +
    `<path d="M258 154 C276 122 352 112 400 124 C412 140 402 162 380 168 L266 170 Z" fill="${bodyFill(p)}"/>` +
    `<path d="M276 136 C310 122 352 120 384 128" fill="none" stroke="#ffffff" stroke-width="3" opacity="0.35"/>` +
    `<path d="M168 150 C196 138 236 138 262 150 L262 166 L170 164 Z" fill="#1f2024"/>` +
    `<path d="M104 150 L174 146 L176 166 L132 168 Z" fill="${bodyFill(p)}"/>` +
    `<path d="M100 150 L112 148 L112 158 L100 158 Z" fill="#c0202a"/>` +
    `<path d="M402 172 C420 160 452 160 474 176" fill="none" stroke="${p.hex}" stroke-width="9" stroke-linecap="round"/>` +
    `<circle cx="420" cy="124" r="15" fill="#fbf6e4" stroke="#5d6168" stroke-width="3"/>` +
    `<path d="M400 104 C420 92 438 98 440 112" fill="none" stroke="${p.hex}" stroke-width="6"/>`
  );
}

function motorhome(p: Paint): string {
  const box = 'M16 262 L12 58 C12 46 22 38 34 38 L496 38 C514 38 526 50 526 68 L524 92 C522 102 514 106 504 106 L452 106 L452 262 Z';
  const cabBody =
    'M446 266 L446 104 L512 104 C530 120 550 150 566 172 C582 178 592 188 594 204 L596 256 C596 264 590 268 582 268 L446 268 Z';
  return (
    `<path d="${box}" fill="url(#${p.id}-box)" stroke="#c5cacf" stroke-width="2"/>` +
    `<path d="M12 206 C150 196 300 176 452 156 L452 182 C300 202 150 222 12 232 Z" fill="${bodyFill(p)}"/>` +
    `<path d="M12 240 C150 232 300 214 452 196 L452 204 C300 222 150 240 12 248 Z" fill="${p.hex}" opacity="0.6"/>` +
    `<path d="${cabBody}" fill="${bodyFill(p)}"/>` +
    `<path d="M462 170 L462 118 L508 118 C522 132 536 150 548 170 Z" fill="${glassFill(p)}"/>` +
    `<rect x="60" y="84" width="96" height="52" rx="8" fill="${glassFill(p)}"/>` +
    `<rect x="290" y="80" width="120" height="50" rx="8" fill="${glassFill(p)}"/>` +
    `<rect x="470" y="56" width="40" height="30" rx="6" fill="${glassFill(p)}"/>` +
    `<rect x="196" y="92" width="62" height="164" rx="5" fill="none" stroke="#aab0b6" stroke-width="2.5"/>` +
    `<rect x="210" y="106" width="34" height="44" rx="4" fill="${glassFill(p)}"/>` +
    `<rect x="236" y="172" width="12" height="4" rx="2" fill="#6d7277"/>` +
    `<rect x="90" y="30" width="80" height="10" rx="3" fill="#d7dbdf"/>` +
    `${arch(150, 256, 50, 262, '#25272b')}${wheel(p, 150, 44)}` +
    `${arch(500, 256, 50, 266, p.dark)}${wheel(p, 500, 44)}` +
    `<rect x="446" y="236" width="150" height="30" rx="4" fill="${p.trim}" opacity="0.85"/>` +
    lights('M578 182 C586 186 590 192 592 198 L572 196 Z', 'M12 160 L22 160 L22 200 L12 200 Z')
  );
}

function caravan(p: Paint): string {
  return (
    `<path d="M470 254 L594 262" stroke="#3b3e44" stroke-width="9" stroke-linecap="round"/>` +
    `<path d="M566 258 L566 288" stroke="#3b3e44" stroke-width="7"/>` +
    `<circle cx="566" cy="292" r="8" fill="#1a1b1e"/>` +
    `<rect x="40" y="62" width="436" height="200" rx="28" fill="url(#${p.id}-box)" stroke="#c5cacf" stroke-width="2"/>` +
    `<path d="M40 200 C180 190 330 170 476 150 L476 176 C330 196 180 216 40 226 Z" fill="${bodyFill(p)}"/>` +
    `<rect x="84" y="92" width="110" height="56" rx="10" fill="${glassFill(p)}"/>` +
    `<rect x="330" y="92" width="100" height="56" rx="10" fill="${glassFill(p)}"/>` +
    `<rect x="230" y="96" width="62" height="156" rx="5" fill="none" stroke="#aab0b6" stroke-width="2.5"/>` +
    `<rect x="244" y="110" width="34" height="40" rx="4" fill="${glassFill(p)}"/>` +
    `<rect x="40" y="252" width="436" height="12" rx="4" fill="#3b3e44"/>` +
    `${arch(260, 262, 44, 264, '#25272b')}${wheel(p, 260, 38)}`
  );
}

export function drawVehicle(shape: BodyShape, p: Paint): string {
  switch (shape) {
    case 'sedan':
      return sedan(p);
    case 'hatch':
      return hatch(p);
    case 'wagon':
      return wagon(p);
    case 'suv':
      return suv(p);
    case 'ute':
      return ute(p);
    case 'coupe':
      return coupe(p);
    case 'van':
      return van(p);
    case 'truck':
      return truck(p, false);
    case 'cab-chassis':
      return truck(p, true);
    case 'motorcycle':
      return motorcycle(p);
    case 'motorhome':
      return motorhome(p);
    case 'caravan':
      return caravan(p);
  }
}

/** Horizontal extent of each drawing in local units, to centre it. */
export const extents: Record<BodyShape, [number, number]> = {
  sedan: [20, 596],
  hatch: [60, 544],
  wagon: [20, 596],
  suv: [30, 592],
  ute: [22, 594],
  coupe: [30, 592],
  van: [22, 596],
  truck: [20, 598],
  'cab-chassis': [22, 598],
  motorcycle: [88, 518],
  motorhome: [12, 596],
  caravan: [40, 594],
};
