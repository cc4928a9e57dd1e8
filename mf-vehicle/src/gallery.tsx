import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { deviceWidths } from '@dealer/rules/images';
import { VehicleImage } from '@dealer/ui/vehicle-image';
import { Modal } from '@dealer/ui/modal';
import { Button } from '@dealer/ui/button';

const swipeDistance = 40;
const fullScreenWidths = [640, 828, 1080, 1280] as const;

/**
 * Photos of a car: the first eager (it is the page's LCP), the rest lazy; arrows, keyboard and
 * swipe move between them; a full-screen view for a closer look.
 */
export function Gallery({ images, name, tag }: { images: string[]; name: string; tag: React.ReactNode }) {
  const [index, setIndex] = useState(0);
  const [fullScreen, setFullScreen] = useState(false);
  const start = useRef<number | null>(null);
  const count = images.length;
  const go = (next: number) => setIndex(((next % count) + count) % count);
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight') go(index + 1);
    else if (event.key === 'ArrowLeft') go(index - 1);
    else return;
    event.preventDefault();
  };
  const onPointerDown = (event: PointerEvent) => {
    start.current = event.clientX;
  };
  const onPointerUp = (event: PointerEvent) => {
    if (start.current === null) return;
    const delta = event.clientX - start.current;
    start.current = null;
    if (Math.abs(delta) >= swipeDistance) go(delta < 0 ? index + 1 : index - 1);
  };
  const current = images[index] ?? images[0]!;
  const label = `Photo ${index + 1} of ${count}`;

  return (
    <div className="gallery">
      <div
        className="gallery__stage"
        role="region"
        aria-roledescription="carousel"
        aria-label={`Photos of the ${name}`}
        tabIndex={0}
        onKeyDown={onKey}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
      >
        {tag}
        <VehicleImage
          key={current}
          path={current}
          alt={`${name}, ${label.toLowerCase()}`}
          width={960}
          height={720}
          sizes="(min-width: 992px) 60vw, 100vw"
          widths={deviceWidths}
          priority={index === 0}
        />
        {count > 1 && (
          <>
            <button type="button" className="gallery__arrow gallery__arrow--prev" aria-label="Previous photo" onClick={() => go(index - 1)}>
              ‹
            </button>
            <button type="button" className="gallery__arrow gallery__arrow--next" aria-label="Next photo" onClick={() => go(index + 1)}>
              ›
            </button>
          </>
        )}
        <span className="gallery__count" aria-live="polite">
          {label}
        </span>
      </div>
      <div className="gallery__bar">
        <ul className="gallery__thumbs">
          {images.map((image, i) => (
            <li key={image}>
              <button type="button" aria-label={`Show photo ${i + 1}`} aria-current={i === index} onClick={() => setIndex(i)}>
                <VehicleImage path={image} alt="" width={160} height={120} sizes="80px" widths={[160, 320]} />
              </button>
            </li>
          ))}
        </ul>
        <Button variant="secondary" onClick={() => setFullScreen(true)}>
          View full screen
        </Button>
      </div>
      <Modal open={fullScreen} onClose={() => setFullScreen(false)} title={`${name} · ${label}`}>
        <div className="gallery__full" onKeyDown={onKey} onPointerDown={onPointerDown} onPointerUp={onPointerUp}>
          <VehicleImage
            key={`full-${current}`}
            path={current}
            alt={`${name}, ${label.toLowerCase()}`}
            width={1280}
            height={960}
            sizes="94vw"
            widths={fullScreenWidths}
            priority
          />
          <div className="gallery__full-nav">
            <Button variant="secondary" onClick={() => go(index - 1)} aria-label="Previous photo">
              ‹ Previous
            </Button>
            <Button variant="secondary" onClick={() => go(index + 1)} aria-label="Next photo">
              Next ›
            </Button>
          </div>
        </div>
      </Modal>
    </div>
  );
}
