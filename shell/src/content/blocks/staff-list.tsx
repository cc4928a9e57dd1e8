import type { ContentBlock, StaffMember } from '@dealer/contracts/content';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { ContentImage } from './image';

function Person({ person }: { person: StaffMember }) {
  return (
    <li className="content-person">
      {person.photo && <ContentImage className="content-person__photo" image={person.photo} width={320} height={320} sizes="160px" />}
      <h3>{person.name}</h3>
      {person.role && <p>{person.role}</p>}
      {person.phone && (
        <p>
          <a href={`tel:${person.phone.replace(/\s+/g, '')}`}>{person.phone}</a>
        </p>
      )}
      {person.email && (
        <p>
          <a href={`mailto:${person.email}`}>{person.email}</a>
        </p>
      )}
    </li>
  );
}

const People = ({ people }: { people: StaffMember[] }) => (
  <ul className="content-people">
    {people.map((person, index) => (
      <Person key={index} person={person} />
    ))}
  </ul>
);

/** The team as the dealer lists it: in one list, or under each location's name (in the site's order of locations, the rest last). */
export function StaffListBlock({ block }: { block: Extract<ContentBlock, { type: 'staff_list' }> }) {
  const site = useAppSelector(selectSite);
  if (!block.group_by_location) return <People people={block.people} />;
  const groups = site.locations
    .map((location) => ({
      id: location.id,
      name: location.name,
      people: block.people.filter((person) => person.location_id === location.id),
    }))
    .filter((group) => group.people.length > 0);
  const placed = new Set(groups.map((group) => group.id));
  const others = block.people.filter((person) => person.location_id === undefined || !placed.has(person.location_id));
  return (
    <div className="content-staff">
      {groups.map((group) => (
        <section key={group.id}>
          <h2>{group.name}</h2>
          <People people={group.people} />
        </section>
      ))}
      {others.length > 0 && <People people={others} />}
    </div>
  );
}
