import { Button } from '@dealer/ui/button';
import { FieldError } from './field-error';
import type { FieldHelpers, MenuLink, Menus } from './settings-fields';

const menuNames: Record<keyof Menus, string> = { header: 'Header menu', footer: 'Footer links' };
const dynamicNotes: Record<NonNullable<MenuLink['dynamic']>, string> = {
  stock: 'Opens a menu of the stock by type.',
  brands: 'Opens a menu of the brands sold.',
};

type Props = { menus: Menus; onChange: (menus: Menus) => void; fields: FieldHelpers; disabled: boolean };

/**
 * The site's header menu and footer links: each link's label and where it goes (a page of the site
 * such as /about, or a web address), in order; links added, moved and removed. A link's own menu
 * beneath it, if it has one, is kept as it is.
 */
export function MenusFieldset({ menus, onChange, fields, disabled }: Props) {
  return (
    <fieldset disabled={disabled}>
      <legend>Menus</legend>
      {(Object.keys(menuNames) as (keyof Menus)[]).map((menu) => {
        const links = menus[menu];
        const set = (next: MenuLink[]) => onChange({ ...menus, [menu]: next });
        const move = (from: number, to: number) => {
          const next = [...links];
          const [moved] = next.splice(from, 1);
          next.splice(to, 0, moved!);
          set(next);
        };
        return (
          <section key={menu} className="dc-menu" aria-labelledby={`menu-${menu}-title`}>
            <h3 id={`menu-${menu}-title`}>{menuNames[menu]}</h3>
            <ol className="dc-menu__links">
              {links.map((link, index) => {
                const path = (field: string) => `navigation.${menu}.${index}.${field}`;
                const name = link.label || `link ${index + 1}`;
                return (
                  <li key={index} className="dc-menu__link">
                    <div className="dp-field">
                      <label htmlFor={`${menu}-${index}-label`}>Label</label>
                      <input
                        id={`${menu}-${index}-label`}
                        value={link.label}
                        onChange={(event) => set(links.map((one, i) => (i === index ? { ...one, label: event.target.value } : one)))}
                        {...fields.invalid(path('label'))}
                      />
                      <FieldError path={path('label')} fields={fields} />
                    </div>
                    <div className="dp-field">
                      <label htmlFor={`${menu}-${index}-to`}>Goes to</label>
                      <input
                        id={`${menu}-${index}-to`}
                        value={link.to === true ? '' : link.to}
                        placeholder={link.to === true ? 'No link (a heading)' : '/about or https://…'}
                        onChange={(event) =>
                          set(
                            links.map((one, i) =>
                              i === index ? { ...one, to: event.target.value || (link.to === true ? true : '') } : one,
                            ),
                          )
                        }
                        {...fields.invalid(path('to'))}
                      />
                      <FieldError path={path('to')} fields={fields} />
                    </div>
                    {link.dynamic ? <p className="dc-menu__note">{dynamicNotes[link.dynamic]}</p> : null}
                    {link.children?.length ? (
                      <p className="dc-menu__note">{link.children.length} links beneath it, kept as they are.</p>
                    ) : null}
                    <div className="dc-menu__actions">
                      <Button variant="link" disabled={index === 0} onClick={() => move(index, index - 1)} aria-label={`Move ${name} up`}>
                        Up
                      </Button>
                      <Button
                        variant="link"
                        disabled={index === links.length - 1}
                        onClick={() => move(index, index + 1)}
                        aria-label={`Move ${name} down`}
                      >
                        Down
                      </Button>
                      <Button variant="link" onClick={() => set(links.filter((_, i) => i !== index))} aria-label={`Remove ${name}`}>
                        Remove
                      </Button>
                    </div>
                  </li>
                );
              })}
            </ol>
            <Button variant="secondary" onClick={() => set([...links, { label: '', to: '/' }])}>
              Add a link to the {menuNames[menu].toLowerCase()}
            </Button>
          </section>
        );
      })}
    </fieldset>
  );
}
