/**
 * Generated vehicle "photos" (SPEC §7: images come through the image endpoint with width and
 * quality). The picture is drawn from the photo path alone (category, body, colour, variant, see
 * `vehiclePhotoPath` in @dealer/rules), so it is deterministic and cacheable forever.
 *
 * The SVG is self-contained: no text, no fonts, no external references. It is drawn on an
 * 800×600 view box (4:3) and scaled to the requested pixel size.
 */
import { resolveBody } from './car-bodies';
import { drawVehicle, extents, GROUND, type Paint } from './car-drawings';
import { darken, lighten, luminance, paintHex, stableHash } from './car-paint';
import { scenes } from './car-scenes';

export { namedBodySlugs, resolveBody, type BodyShape } from './car-bodies';
export { namedColourSlugs, paintHex, stableHash } from './car-paint';

export interface CarPhotoParams {
  category: string;
  body: string;
  colour: string;
  variant: number;
}

/* ------------------------------------------------------------------- public */

/**
 * SVG picture of a vehicle (4:3, view box 800×600) at `width`×`height` pixels.
 * `variant` 0..7 picks the backdrop, direction and framing; other values wrap.
 */
export function carPhotoSvg(p: CarPhotoParams, width: number, height: number): string {
  const variant = ((Math.trunc(p.variant) % 8) + 8) % 8;
  const scene = scenes[variant] ?? scenes[0]!;
  const shape = resolveBody(p.category, p.body);
  const hex = paintHex(p.colour);
  const id = `v${stableHash(`${p.category}/${p.body}/${p.colour}/${variant}`).toString(36)}`;
  const light = luminance(hex);
  const paint: Paint = {
    id,
    hex,
    dark: darken(hex, light > 0.6 ? 0.55 : 0.5),
    trim: light < 0.12 ? '#2b2d31' : '#26282c',
  };

  const [x0, x1] = extents[shape];
  const centre = (x0 + x1) / 2;
  const vehicleWidth = x1 - x0;
  const scale = scene.scale * (shape === 'motorcycle' ? 1.05 : shape === 'hatch' ? 1.08 : 1) * Math.min(1, 600 / vehicleWidth);
  const cx = 400 + scene.dx;
  const place = `translate(${cx} ${scene.groundY}) scale(${(scale * scene.dir).toFixed(4)} ${scale.toFixed(4)}) translate(${-centre} ${-GROUND})`;
  const mirror = `translate(${cx} ${scene.groundY}) scale(${(scale * scene.dir).toFixed(4)} ${(-scale * 0.9).toFixed(4)}) translate(${-centre} ${-GROUND})`;

  const skyStops = scene.sky
    .map((c, i) => `<stop offset="${(i / Math.max(1, scene.sky.length - 1)).toFixed(3)}" stop-color="${c}"/>`)
    .join('');
  const defs =
    `<linearGradient id="${id}-sky" x1="0" y1="0" x2="0" y2="1">${skyStops}</linearGradient>` +
    `<linearGradient id="${id}-ground" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${scene.ground[0]}"/><stop offset="1" stop-color="${scene.ground[1]}"/></linearGradient>` +
    `<linearGradient id="${id}-paint" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${lighten(hex, light < 0.15 ? 0.3 : 0.22)}"/><stop offset="0.45" stop-color="${hex}"/><stop offset="1" stop-color="${darken(hex, 0.32)}"/></linearGradient>` +
    `<linearGradient id="${id}-glass" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#3a4654"/><stop offset="1" stop-color="#12171e"/></linearGradient>` +
    `<radialGradient id="${id}-rim" cx="0.4" cy="0.35" r="0.75"><stop offset="0" stop-color="#eef0f2"/><stop offset="0.6" stop-color="#a9aeb5"/><stop offset="1" stop-color="#6c7178"/></radialGradient>` +
    `<linearGradient id="${id}-box" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fbfbfa"/><stop offset="1" stop-color="#dfe2e5"/></linearGradient>` +
    `<linearGradient id="${id}-alu" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#e3e6e9"/><stop offset="1" stop-color="#9ea3a9"/></linearGradient>` +
    `<radialGradient id="${id}-shadow" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#000000" stop-opacity="${scene.shadow}"/><stop offset="0.7" stop-color="#000000" stop-opacity="${(scene.shadow * 0.35).toFixed(3)}"/><stop offset="1" stop-color="#000000" stop-opacity="0"/></radialGradient>` +
    `<linearGradient id="${id}-fade" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${scene.ground[0]}" stop-opacity="0.45"/><stop offset="0.6" stop-color="${scene.ground[1]}" stop-opacity="0.95"/><stop offset="1" stop-color="${scene.ground[1]}" stop-opacity="1"/></linearGradient>`;

  const vehicle = drawVehicle(shape, paint);
  const halfWidth = (vehicleWidth * scale) / 2;
  const reflection = scene.reflect
    ? `<g transform="${mirror}" opacity="0.35">${vehicle}</g>` +
      `<rect x="0" y="${scene.groundY}" width="800" height="${600 - scene.groundY}" fill="url(#${id}-fade)"/>`
    : '';

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(width)}" height="${Math.round(height)}" viewBox="0 0 800 600" preserveAspectRatio="xMidYMid slice">` +
    `<defs>${defs}</defs>` +
    `<rect width="800" height="600" fill="url(#${id}-sky)"/>` +
    scene.extras(id) +
    `<rect x="0" y="${scene.horizon}" width="800" height="${600 - scene.horizon}" fill="url(#${id}-ground)"/>` +
    reflection +
    `<ellipse cx="${cx}" cy="${scene.groundY + 2}" rx="${(halfWidth * 1.08).toFixed(1)}" ry="${(22 * scale).toFixed(1)}" fill="url(#${id}-shadow)"/>` +
    `<ellipse cx="${cx}" cy="${scene.groundY}" rx="${(halfWidth * 0.9).toFixed(1)}" ry="${(6 * scale).toFixed(1)}" fill="#000000" opacity="${(scene.shadow * 0.5).toFixed(3)}"/>` +
    `<g transform="${place}">${vehicle}</g>` +
    `</svg>`
  );
}
