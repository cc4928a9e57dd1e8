import { Spinner } from '@dealer/ui/spinner';
import type { ExposedModule } from '@dealer/contracts/remote-modules';
import { firstPaintHero } from '../boot/first-paint';

/**
 * What a route shows while its remote loads. On the car page the document described, that is
 * the hero boot/first-paint.ts drew before React (same markup, same image), so the largest paint does
 * not change and nothing shifts when React takes over; elsewhere a spinner.
 */
export function RoutePlaceholder({ module, props }: { module: ExposedModule; props: Record<string, unknown> }) {
  const hero = module === 'mf-vehicle/VehicleDetailPage' ? firstPaintHero() : null;
  if (!hero || props.slug !== hero.slug) return <Spinner />;
  return (
    <div className="route-placeholder">
      <article className="dp-container vehicle-page">
        <div className="gallery">
          <div className="gallery__stage">
            <img
              src={hero.src}
              srcSet={hero.srcSet}
              sizes={hero.sizes}
              width={960}
              height={720}
              alt={hero.alt}
              decoding="sync"
              fetchPriority="high"
            />
          </div>
        </div>
      </article>
      <Spinner />
    </div>
  );
}
