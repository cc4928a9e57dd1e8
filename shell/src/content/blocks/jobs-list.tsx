import type { ContentBlock, JobCard } from '@dealer/contracts/content';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { formatDay } from '../content-dates';
import { RichHtml } from './rich-html';

/** Where the careers form of a page is (the lead form block's anchor). */
export const careersFormAnchor = 'careers-form';

type JobsListProps = {
  block: Extract<ContentBlock, { type: 'jobs_list' }> & { jobs: JobCard[] };
  /** The page has a careers form to apply with. */
  hasForm: boolean;
};

/** The site's open jobs: what, where and on what terms, the description, and the way to apply. */
export function JobsListBlock({ block, hasForm }: JobsListProps) {
  const site = useAppSelector(selectSite);
  if (block.jobs.length === 0) return <p>There are no open positions right now. Please check back soon.</p>;
  return (
    <ul className="content-jobs">
      {block.jobs.map((job) => (
        <li key={job.slug} className="content-job">
          <h2>{job.title}</h2>
          <p className="content-meta">
            {[
              job.employment_type,
              job.location_name,
              job.closes_at === null ? null : `Applications close ${formatDay(job.closes_at, site.locale)}`,
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
          {job.summary && <p>{job.summary}</p>}
          {job.body_html && <RichHtml html={job.body_html} />}
          {hasForm && <a href={`#${careersFormAnchor}`}>Apply below</a>}
        </li>
      ))}
    </ul>
  );
}
